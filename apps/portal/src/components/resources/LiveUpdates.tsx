'use client';
import SensorsIcon from '@mui/icons-material/Sensors';
import Chip from '@mui/material/Chip';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

/** Changes arriving together (a provider's Synced then Ready) re-render the page once. */
const SETTLE_MS = 200;

/**
 * Keeps the page's server data current from the live event stream (GET /api/platform/events):
 * when an account changes in the cluster, the page re-renders its server data; nothing is asked
 * while nothing changes. `since` is the stream position the page was rendered at, so a change
 * between the render and the connection is not missed; `account` narrows it to one account's page.
 * The browser's EventSource reconnects by itself and resumes with Last-Event-ID.
 */
export function LiveUpdates({ since, account }: { since: number; account?: string }) {
  const router = useRouter();
  const [live, setLive] = useState(false);
  // Only the first render's position counts: the connection outlives the re-renders it causes.
  const start = useRef(since);
  useEffect(() => {
    const source = new EventSource(`/api/platform/events?since=${start.current}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (): void => {
      timer ??= setTimeout(() => {
        timer = undefined;
        router.refresh();
      }, SETTLE_MS);
    };
    source.addEventListener('open', () => setLive(true));
    source.addEventListener('error', () => setLive(false));
    source.addEventListener('account', (event) => {
      if (account === undefined) return refresh();
      const change = JSON.parse((event as MessageEvent<string>).data) as { name?: string };
      if (change.name === account) refresh();
    });
    source.addEventListener('reload', refresh);
    source.addEventListener('signed-out', () => {
      source.close();
      setLive(false);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [account, router]);
  return (
    <Chip
      role="status"
      size="small"
      color={live ? 'success' : 'default'}
      variant="outlined"
      icon={<SensorsIcon />}
      label={live ? 'Live' : 'Connecting to live updates'}
    />
  );
}
