// Builds the production bundle when dist/ is missing or older than the sources, the way
// `npm install` (prepare) or `npm run build` would.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

export function buildIfNeeded(appDir: string): void {
  const entry = join(appDir, 'dist', 'server.js');
  if (existsSync(entry) && statSync(entry).mtimeMs >= newestMtime(join(appDir, 'src'))) return;
  console.log('dist/ is missing or older than src/: running npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: appDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}
