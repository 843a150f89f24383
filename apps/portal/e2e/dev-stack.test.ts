/**
 * `npm run dev:stack` as a new user runs it: from the repository root, in its own process group
 * (a terminal's), stopped with Ctrl-C, which signals the whole group. It must serve the API on
 * PostgreSQL and the portal with sign-in within 180 s, and leave no process and no data behind.
 * Needs the portal's production build (npm run test:e2e makes it) and PostgreSQL 15's binaries.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { freePort } from '../kube-stand-in/portal-server';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const STARTUP_LIMIT_MS = 180_000;

/** Processes whose command line mentions `text` (the stack's data folder, say). */
function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (command.includes(text)) found.push(`${pid}: ${command}`);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

/** Processes of a process group: what a terminal's Ctrl-C would reach, and what must be gone after it. */
function processGroup(group: number): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: the command may hold spaces and parentheses, so read after the last ')'.
      const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === group) found.push(`${pid}: ${stat.slice(0, stat.lastIndexOf(')') + 1)}`);
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'manual' });
    return false;
  } catch {
    return true;
  }
}

test('npm run dev:stack serves the API on PostgreSQL and the portal with sign-in, and Ctrl-C leaves nothing', async () => {
  const apiPort = await freePort();
  const portalPort = await freePort();
  const stack = spawn('npm', ['run', '--silent', 'dev:stack'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(apiPort), PORTAL_PORT: String(portalPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, as in a terminal
  });
  const exited = once(stack, 'exit');
  let ended = false;
  void exited.then(() => (ended = true));
  let output = '';
  stack.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  stack.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  after(() => {
    if (stack.exitCode === null && stack.signalCode === null) process.kill(-stack.pid!, 'SIGKILL');
  });

  const started = Date.now();
  while (!output.includes('Press Ctrl+C to stop everything.')) {
    if (ended) assert.fail(`dev:stack exited before it was ready:\n${output}`);
    assert.ok(Date.now() - started < STARTUP_LIMIT_MS, `dev:stack not ready within 180 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const api = `http://127.0.0.1:${apiPort}`;
  const portal = `http://127.0.0.1:${portalPort}`;
  assert.match(output, new RegExp(`Books API +${api}`), 'the API on PORT');
  assert.match(output, new RegExp(`Portal +${portal}`), 'the portal on PORTAL_PORT');
  assert.match(output, /demo-writer \/ demo-writer-password/, 'the API demo credentials');
  assert.match(output, /demo-requester \/ demo-requester-password \(requester\)/, 'the portal demo credentials');
  const databaseUrl = /PostgreSQL +(postgres:\/\/\S+)/.exec(output)?.[1];
  const dataFolder = /\(data in (\S+)\)/.exec(output)?.[1];
  const issuer = /Sign-in +(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  assert.ok(databaseUrl && dataFolder && issuer, output);
  assert.ok(existsSync(dataFolder), 'the data folder exists while it runs');

  // The API: token login with a demo user, a create that lands in PostgreSQL.
  const login = await fetch(`${api}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'username=demo-writer&password=demo-writer-password',
  });
  assert.equal(login.status, 200);
  const title = `Written through the dev stack ${Date.now()}`;
  const created = await fetch(`${api}/api/v1/books`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title, author: 'Dev Stack', year: 2026 }),
  });
  assert.equal(created.status, 201);
  const sql = postgres(new URL('/books', databaseUrl).toString(), { max: 1, onnotice: () => undefined });
  try {
    const rows = await sql<{ title: string }[]>`select title from books where title = ${title}`;
    assert.equal(rows.length, 1, 'the book is a row in the books database');
    const [role] = await sql<{ rolsuper: boolean }[]>`select rolsuper from pg_roles where rolname = 'books'`;
    assert.equal(role?.rolsuper, false, 'the API connects as its own role, not a superuser');
  } finally {
    await sql.end();
  }

  // The API trusts the same provider: its /docs offers the provider's sign-in (authorization code with PKCE).
  const document = (await (await fetch(`${api}/openapi.json`)).json()) as {
    components: { securitySchemes: Record<string, { flows?: { authorizationCode?: { authorizationUrl: string } } }> };
  };
  const flow = document.components.securitySchemes['OAuth2AuthorizationCodeBearer']?.flows?.authorizationCode;
  assert.equal(flow?.authorizationUrl, `${issuer}/auth`, 'the API signs in at the local provider');

  // The portal: a page sends an anonymous visitor to sign in at the local OpenID Provider.
  const page = await fetch(`${portal}/resources`, { redirect: 'manual' });
  assert.equal(page.status, 303);
  const signIn = await fetch(new URL(page.headers.get('location')!, portal), { redirect: 'manual' });
  assert.ok(
    signIn.headers.get('location')?.startsWith(`${issuer}/`),
    `sign-in goes to the provider: ${signIn.headers.get('location')}`,
  );
  assert.equal((await fetch(`${issuer}/.well-known/openid-configuration`)).status, 200);

  // Ctrl-C: SIGINT to the whole process group.
  process.kill(-stack.pid!, 'SIGINT');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0, `dev:stack exits 0 on Ctrl-C:\n${output.slice(-2000)}`);
  for (
    let waited = 0;
    waited < 60 && processesMentioning(dataFolder).length + processGroup(stack.pid!).length > 0;
    waited += 1
  ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.deepEqual(processesMentioning(dataFolder), [], 'no PostgreSQL process left');
  assert.deepEqual(processGroup(stack.pid!), [], 'no process of the stack left');
  assert.equal(existsSync(dataFolder), false, 'the data folder is removed');
  for (const url of [`${api}/api/ps`, `${portal}/catalog`, issuer, databaseUrl.replace('postgres:', 'http:')]) {
    assert.ok(await refusesConnections(url), `nothing answers on ${url} any more`);
  }
});
