'use client';
import Refresh from '@mui/icons-material/Refresh';
import Button from '@mui/material/Button';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';

/** Re-reads the page's server data now, beside (or instead of) the automatic refresh. */
export function RefreshButton({ label = 'Refresh' }: { label?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      size="small"
      variant="text"
      startIcon={<Refresh />}
      disabled={pending}
      onClick={() => startTransition(() => router.refresh())}
    >
      {pending ? 'Refreshing…' : label}
    </Button>
  );
}
