import Alert from '@mui/material/Alert';

/** Says plainly, on every page, when nobody signs in: development mode, or PORTAL_AUTH=none. */
export function AuthBanner({ mode }: { mode: 'development' | 'none' | 'proxy' | 'oidc' }) {
  if (mode === 'development') {
    return (
      <Alert severity="info" role="note" sx={{ mb: 3 }} data-testid="auth-banner">
        <strong>Development mode, no sign-in:</strong> you act as <strong>developer</strong> with the admin role.
      </Alert>
    );
  }
  if (mode === 'none') {
    return (
      <Alert severity="error" role="note" sx={{ mb: 3 }} data-testid="auth-banner">
        <strong>No sign-in (PORTAL_AUTH=none):</strong> anyone who can reach this portal acts as an admin and can create
        and delete storage accounts.
      </Alert>
    );
  }
  return null;
}
