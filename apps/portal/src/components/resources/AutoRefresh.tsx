'use client';
import Autorenew from '@mui/icons-material/Autorenew';
import Chip from '@mui/material/Chip';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * While a resource shown on the page is still provisioning or deleting, re-render the page's
 * server data every few seconds. The server decides `active` on each render, so polling stops
 * by itself once everything has settled.
 */
export function AutoRefresh({ active, intervalMs = 3000 }: { active: boolean; intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, router]);
  return active ? (
    <Chip
      role="status"
      size="small"
      color="info"
      variant="outlined"
      icon={<Autorenew />}
      label="Updating automatically"
    />
  ) : null;
}
