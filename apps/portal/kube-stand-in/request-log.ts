/** What the stand-in remembers of each request it answered, for tests to check what the portal asked. */
import type { Verb } from './types.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  verb?: Verb;
  resource?: string;
  /** The W3C trace context the caller sent, if any (the portal's traces). */
  traceparent?: string;
}
