/**
 * `node --import tsx run-with-postgres.ts <command> [args...]` runs a command with TEST_DATABASE_URL set:
 * to the caller's server when it is already set, otherwise to one throwaway cluster shared by every test
 * file of the run (each file still creates its own databases in it), removed when the command ends.
 */
import { spawn } from 'node:child_process';
import { startPostgres } from './index.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: run-with-postgres <command> [args...]');
  process.exit(2);
}

const server = await startPostgres();
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: server.adminUrl },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const exitCode = await new Promise<number>((resolve) => {
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  child.on('error', (error) => {
    console.error(`run-with-postgres: ${error.message}`);
    resolve(1);
  });
});
await server.stop();
process.exit(exitCode);
