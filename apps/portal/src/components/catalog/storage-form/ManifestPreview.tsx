'use client';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { stringify } from 'yaml';
import { buildAccountManifest } from '@/lib/platform/account-manifest';
import type { StorageAccountRequest } from '@/lib/platform/storage-request';

/** The manifest the server will build from this request, as YAML, from the same builder the server uses. */
export function ManifestPreview({ request }: { request: StorageAccountRequest }) {
  const yaml = useMemo(() => stringify(buildAccountManifest(request)), [request]);
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
        What the portal will submit to the platform. The server adds who asked and the request id.
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
