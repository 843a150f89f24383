'use client';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';

/** How long to wait for a streamed page to show its heading before giving up. */
const HEADING_WAIT_MS = 5000;

/**
 * After a client-side navigation, moves focus to the new page's main heading, as a full page
 * load would put a screen reader at the top of the new content; without this, focus stays on the
 * link that was clicked (or drops to <body> when that link disappears).
 */
export function RouteFocus({ mainId }: { mainId: string }) {
  const pathname = usePathname();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    const deadline = Date.now() + HEADING_WAIT_MS;
    let frame = 0;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>(`#${mainId} h1`);
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: false });
        return;
      }
      if (Date.now() < deadline) frame = requestAnimationFrame(focusHeading);
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname, mainId]);
  return null;
}
