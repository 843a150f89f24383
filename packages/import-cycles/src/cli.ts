import { importCycleProblems } from './index.js';

// `npm run lint` runs this: it fails on any import cycle in apps/*/src (see CYCLES_BEING_REMOVED).
const problems = importCycleProblems();
for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length > 0) process.exit(1);
