import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PageHeader } from '@/components/common/PageHeader';
import { hasRole } from '@/lib/auth/permissions';
import { signedInPrincipal } from '@/server/auth/current-principal';
import { clusterCacheSettings, clusterSettings, portalSettings, type SettingEntry } from '@/server/portal-settings';

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

/** The configuration this portal process runs with; secrets are only ever shown as set or not. */
export default async function SettingsPage() {
  await connection();
  const admin = hasRole(await signedInPrincipal(), 'admin');
  return (
    <>
      <PageHeader
        title="Settings"
        description="The configuration this portal runs with, read from its environment at start. Secrets are never shown."
      />
      <Box sx={{ display: 'grid', gap: 2 }}>
        <SettingsList title="Portal" entries={portalSettings()} />
        <SettingsList title="Cluster" entries={clusterSettings()} />
        {admin ? <SettingsList title="Cluster cache" entries={clusterCacheSettings()} /> : null}
      </Box>
    </>
  );
}
