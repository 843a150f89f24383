/**
 * Preloaded into the server process by measure.ts (`--import`): V8's precise coverage, read over
 * the IPC channel. `reset` forgets what ran so far; `take` answers the source files, with the functions that ran, (of this
 * repository, outside node_modules) in which any function ran since the last reset.
 */
import { Session } from 'node:inspector/promises';

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** The files whose functions ran since the previous call (taking precise coverage with call counts resets them). */
async function filesRun(): Promise<{ url: string; functions: string[] }[]> {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result
    .filter((script) => script.url.startsWith('file://') && !script.url.includes('/node_modules/'))
    .map((script) => ({
      url: script.url,
      functions: script.functions
        .filter((fn) => fn.ranges[0] !== undefined && fn.ranges[0].count > 0)
        .map((fn) => fn.functionName || '(anonymous)'),
    }))
    .filter((script) => script.functions.length > 0);
}

process.on('message', (message: { id: number; command: 'reset' | 'take' }) => {
  void filesRun().then((files) => process.send!({ id: message.id, files: message.command === 'take' ? files : [] }));
});
