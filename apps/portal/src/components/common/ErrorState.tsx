'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useRouter } from 'next/navigation';
import { startTransition, useEffect } from 'react';

/** The body of every error.tsx: says something went wrong and offers a retry. */
export function ErrorState({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  useEffect(() => {
    // The details stay in the server log; the digest ties this page to that log line.
    if (error.digest) console.info(`Page error digest: ${error.digest}`);
  }, [error]);
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        <Button
          color="inherit"
          size="small"
          onClick={() =>
            startTransition(() => {
              router.refresh();
              reset();
            })
          }
        >
          Retry
        </Button>
      }
    >
      <AlertTitle>Something went wrong</AlertTitle>
      This page could not be shown. Retry, or come back in a moment.
      {error.digest ? ` (reference ${error.digest})` : ''}
    </Alert>
  );
}
