'use client';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { stringify } from 'yaml';
import type { AccountManifest } from '@/lib/platform/account-manifest';

/**
 * A manifest as YAML: while editing, the one the shared builder makes from the form; on review,
 * the one the server answered its dry run with.
 */
export function ManifestPreview({
  manifest,
  description = 'What the portal will submit to the platform. The server adds who asked and the request id.',
}: {
  manifest: AccountManifest;
  description?: string;
}) {
  const yaml = useMemo(() => stringify(manifest), [manifest]);
  return (
    <Paper
      component="aside"
      aria-labelledby="manifest-preview-title"
      sx={{ p: 2, position: { lg: 'sticky' }, top: { lg: 88 } }}
    >
      <Typography variant="h2" id="manifest-preview-title" gutterBottom>
        Manifest preview
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {description}
      </Typography>
      <Box
        component="pre"
        tabIndex={0}
        aria-label="Manifest preview"
        data-testid="manifest-preview"
        sx={{
          m: 0,
          p: 2,
          overflow: 'auto',
          maxHeight: { lg: '70vh' },
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: 13,
        }}
      >
        {yaml}
      </Box>
    </Paper>
  );
}
