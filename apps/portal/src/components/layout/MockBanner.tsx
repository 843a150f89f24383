import Alert from '@mui/material/Alert';
import { connection } from 'next/server';
import { platformMode } from '@/server/platform/storage-accounts';

/** Says plainly, on every page, when the data shown is mocked (development mode). */
export async function MockBanner() {
  // Decided per request from the running server's environment, never at build time.
  await connection();
  if (platformMode() !== 'mock') return null;
  return (
    <Alert severity="warning" role="note" sx={{ mb: 3 }} data-testid="mock-banner">
      <strong>Development mode:</strong> the platform data on this page is mocked. No cluster is contacted and nothing
      is created or deleted in Azure.
    </Alert>
  );
}
