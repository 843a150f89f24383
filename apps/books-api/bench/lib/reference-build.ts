// Builds the Books API of another git revision for `npm run bench -- --compare <ref>`.
// The revision is exported with `git archive` (no worktree is registered, nothing in the
// checkout changes) into <tmpdir>/books-api-bench-compare/<commit>/, outside the checkout so
// that no tool of this one (tsc, lint, tests) sees its sources, and built there with this
// checkout's TypeScript. When its lock file equals ours, it borrows our node_modules
// through a symlink; otherwise it gets its own `npm ci`.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { APP_DIR } from './layout.js';

const REPO_DIR = resolve(APP_DIR, '..', '..');

export interface ReferenceBuild {
  ref: string;
  commit: string;
  /** The reference's apps/books-api, holding a built dist/. */
  appDir: string;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8' }).trim();
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

export function prepareReference(ref: string): ReferenceBuild {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`--compare: ${ref} is not a commit of this repository`);
  }
  const treeDir = join(tmpdir(), 'books-api-bench-compare', commit);
  const appDir = join(treeDir, 'apps', 'books-api');
  const entry = join(appDir, 'dist', 'server.js');
  // A build left by an earlier run is reused only while its node_modules still resolves: a
  // symlink to a checkout that was removed since would fail only once the server starts.
  if (existsSync(entry) && existsSync(join(treeDir, 'node_modules'))) return { ref, commit, appDir };

  console.log(`building ${ref} (${commit.slice(0, 12)}) in ${treeDir}`);
  rmSync(treeDir, { recursive: true, force: true });
  mkdirSync(treeDir, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: REPO_DIR, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
  const untar = spawnSync('tar', ['-x', '-C', treeDir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`unpacking ${commit} failed`);

  const sameLock =
    readFileSync(join(REPO_DIR, 'package-lock.json'), 'utf8') ===
    readFileSync(join(treeDir, 'package-lock.json'), 'utf8');
  if (sameLock) lendNodeModules(treeDir);
  // With its install scripts: argon2's prebuilt binary crashes on some machines (this one), and
  // its install script is what falls back to compiling it.
  else run('npm', ['ci', '--no-audit', '--no-fund'], treeDir);

  const tsc = join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  // The revision's own workspace packages first: the app imports their dist/, which `npm ci
  // --ignore-scripts` does not build (and a symlinked node_modules would lend this checkout's).
  const packagesDir = join(treeDir, 'packages');
  const packages = existsSync(packagesDir) ? readdirSync(packagesDir).sort() : [];
  for (const name of packages) {
    if (existsSync(join(packagesDir, name, 'tsconfig.build.json'))) {
      run(process.execPath, [tsc, '-b', 'tsconfig.build.json'], join(packagesDir, name));
    }
  }
  run(process.execPath, [tsc, '-p', 'tsconfig.build.json'], appDir);
  if (!existsSync(entry)) throw new Error(`building ${ref} produced no dist/server.js`);
  return { ref, commit, appDir };
}

/**
 * The same lock file installs the same tree: the revision borrows this checkout's node_modules,
 * the root's and each workspace's own (npm nests a workspace's dependency there when its version
 * differs from the root's).
 */
function lendNodeModules(treeDir: string): void {
  symlinkSync(join(REPO_DIR, 'node_modules'), join(treeDir, 'node_modules'), 'dir');
  for (const parent of ['apps', 'packages']) {
    const ours = join(REPO_DIR, parent);
    if (!existsSync(ours)) continue;
    for (const name of readdirSync(ours)) {
      const modules = join(ours, name, 'node_modules');
      const workspace = join(treeDir, parent, name);
      if (existsSync(modules) && existsSync(workspace)) symlinkSync(modules, join(workspace, 'node_modules'), 'dir');
    }
  }
}
