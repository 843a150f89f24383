// Where both benchmarks find the app and keep their results, and how they split the CPUs:
// the servers on one core, the load generator on the other, so neither steals from the other.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS_DIR = join(APP_DIR, 'bench', 'results');
export const SERVER_CPU = 0;
export const LOADGEN_CPU = 1;
