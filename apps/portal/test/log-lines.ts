import { vi } from 'vitest';

/**
 * Every JSON line the portal's logger writes to stdout from now until the spy is restored
 * (`vi.restoreAllMocks()`); anything else written to stdout still goes through.
 */
export function captureLogLines(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const original = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!text.startsWith('{"level"')) return original(chunk, ...(rest as []));
    for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  });
  return lines;
}
