import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Signed out' };

/** Where sign-out ends (the provider's post_logout_redirect_uri); reachable without a session. */
export default function SignedOutPage() {
  return (
    <>
      <Typography variant="h1" gutterBottom>
        You are signed out
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Your portal session has ended on the server; a copy of its cookie no longer works.
      </Typography>
      {/* A full page load, not client navigation: sign-in leaves for the identity provider. */}
      <Button href="/api/auth/signin?returnTo=%2F" variant="contained">
        Sign in again
      </Button>
    </>
  );
}
