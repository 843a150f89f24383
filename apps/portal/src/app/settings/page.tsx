import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PageHeader } from '@/components/common/PageHeader';
import { signedInPrincipal } from '@/server/auth/current-principal';
import { loadConfig } from '@/server/runtime/config';
import { loadClusterConfig } from '@/server/backends/kubernetes/cluster-config';
import { settingsFor, type SettingEntry, type SettingsSources } from '@/server/services/portal-settings';
import { platformMode } from '@/server/services/storage-accounts';

export const metadata: Metadata = { title: 'Settings' };

function SettingsList({ title, entries }: { title: string; entries: SettingEntry[] }) {
  const id = `settings-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h2" id={id} gutterBottom>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(12rem, max-content) 1fr' }, gap: 1, m: 0 }}
      >
        {entries.map((entry) => (
          <Box key={entry.label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {entry.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
              {entry.value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

function clusterSource(mode: SettingsSources['mode']): SettingsSources['cluster'] {
  if (mode === 'mock') return undefined;
  try {
    return { kubeconfig: loadClusterConfig() };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : 'not configured' };
  }
}

/** The configuration this portal runs with: all of it that may be shown for admins, a summary for others. */
export default async function SettingsPage() {
  await connection();
  const principal = await signedInPrincipal();
  const mode = platformMode();
  const view = settingsFor(principal, {
    config: loadConfig(),
    mode,
    cluster: clusterSource(mode),
    env: process.env,
  });
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          view.full
            ? 'The configuration this portal runs with, read from its environment at start. Secrets show only whether they are set.'
            : 'What this portal is and where it points. The full configuration is shown to admins.'
        }
      />
      <Box sx={{ display: 'grid', gap: 2 }}>
        {view.sections.map((section) => (
          <SettingsList key={section.title} title={section.title} entries={section.entries} />
        ))}
      </Box>
    </>
  );
}
