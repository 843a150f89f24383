import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { ownValue } from '@/lib/own-value';

export const metadata: Metadata = { title: 'Sign-in failed' };

const REASONS: Record<string, string> = {
  expired: 'The sign-in took too long or was started in another browser. Start again.',
  denied: 'The identity provider did not let you in (access denied).',
  provider:
    'The identity provider’s answer could not be verified. Start again; if it keeps failing, ask the platform team.',
};

/** Where a failed sign-in lands; reachable without a session. Details are in the server log, not here. */
export default async function SignInFailedPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string | string[] }>;
}) {
  const { reason } = await searchParams;
  // Only the table's own keys: ?reason=__proto__ or ?reason=constructor is an unknown reason.
  const message = ownValue(REASONS, typeof reason === 'string' ? reason : undefined) ?? REASONS.provider;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        Sign-in failed
      </Typography>
      <Alert severity="error" sx={{ mb: 2 }}>
        {message}
      </Alert>
      <Button href="/api/auth/signin?returnTo=%2F" variant="contained">
        Try again
      </Button>
    </>
  );
}
