import 'server-only';
import { processWide } from '../runtime/process-wide';

/**
 * Open event streams per user in this process (PORTAL_MAX_STREAMS_PER_USER): each holds a
 * connection and a listener for as long as a tab stays open, so one person cannot hold them all.
 */
const openStreams = (): Map<string, number> => processWide('event-streams-per-user', () => new Map<string, number>());

/** A place for one more stream of `subject`, with the function that gives it back; undefined when full. */
export function acquireStream(subject: string, max: number): (() => void) | undefined {
  const streams = openStreams();
  const open = streams.get(subject) ?? 0;
  if (open >= max) return undefined;
  streams.set(subject, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (streams.get(subject) ?? 1) - 1;
    if (left > 0) streams.set(subject, left);
    else streams.delete(subject);
  };
}
