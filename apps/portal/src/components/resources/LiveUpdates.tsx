'use client';
import SensorsIcon from '@mui/icons-material/Sensors';
import Chip from '@mui/material/Chip';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { listenLive } from '@/components/live/live-connection';

/** Changes arriving together (a provider's Synced then Ready) re-render the page once. */
const SETTLE_MS = 200;
/** How often a re-render held back by an open dialog looks again whether the dialog is closed. */
const DIALOG_RECHECK_MS = 500;

/** How many of the page's dialogs are open now; see useHoldLiveUpdates. */
let openDialogs = 0;

/**
 * Every dialog on a live page (a review, a change, a delete) calls this with whether it is open.
 * While one is, a re-render waits: it could take away the button that opened the dialog, and the
 * dialog with it, while the person is still reading or typing.
 */
export function useHoldLiveUpdates(open: boolean): void {
  useEffect(() => {
    if (!open) return;
    openDialogs += 1;
    return () => {
      openDialogs -= 1;
    };
  }, [open]);
}

/**
 * Keeps the page's server data current from the live event stream (GET /api/platform/events):
 * when an account changes in the cluster, the page re-renders its server data; nothing is asked
 * while nothing changes, and a re-render waits while a dialog is open. `since` is the stream
 * position the page was rendered at, so a change between the render and the connection is not
 * missed; `account` narrows it to one account's page.
 */
export function LiveUpdates({ since, account }: { since: number; account?: string }) {
  const router = useRouter();
  const [live, setLive] = useState(false);
  // Only the first render's position counts: the connection outlives the re-renders it causes.
  const start = useRef(since);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const rerender = (): void => {
      if (openDialogs > 0) {
        timer = setTimeout(rerender, DIALOG_RECHECK_MS);
        return;
      }
      timer = undefined;
      router.refresh();
    };
    const refresh = (): void => {
      timer ??= setTimeout(rerender, SETTLE_MS);
    };
    const stops = [
      listenLive(start.current, 'open', () => setLive(true)),
      listenLive(start.current, 'error', () => setLive(false)),
      listenLive(start.current, 'signed-out', () => setLive(false)),
      listenLive(start.current, 'reload', refresh),
      listenLive(start.current, 'account', (data) => {
        if (account === undefined || (data as { name?: unknown }).name === account) refresh();
      }),
    ];
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
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
