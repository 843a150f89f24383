'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';

/** Shows why platform data could not be loaded, with a retry that reloads the server data. */
export function PlatformProblem({ message, status }: { message: string; status: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const title =
    status === 503 ? 'The platform is unavailable' : status === 403 ? 'Not allowed' : 'Could not load platform data';
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        <Button color="inherit" size="small" disabled={pending} onClick={() => startTransition(() => router.refresh())}>
          Retry
        </Button>
      }
    >
      <AlertTitle>{title}</AlertTitle>
      {message}
    </Alert>
  );
}
