import Alert from '@mui/material/Alert';

/** Says plainly, on every page, when the data shown is mocked (development mode). */
export function MockBanner() {
  return (
    <Alert severity="warning" role="note" sx={{ mb: 3 }} data-testid="mock-banner">
      <strong>Development mode:</strong> the platform data on this page is mocked. No cluster is contacted and nothing
      is created or deleted in Azure.
    </Alert>
  );
}
