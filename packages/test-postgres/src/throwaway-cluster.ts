import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, readdirSync, rmSync, appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian's PostgreSQL 15 server binaries live; PG_BIN_DIR overrides it. */
export const POSTGRES_BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** The PostgreSQL binaries refuse to run as root: as root they run as this system user instead. */
const SERVICE_USER = 'postgres';

/**
 * A PostgreSQL cluster in a temporary folder: its data directory, its unix socket directory and
 * its log live there, it listens on 127.0.0.1 on a free port with trust authentication, and
 * `destroy()` (or the process exiting) removes the folder.
 */
export class ThrowawayCluster {
  readonly folder: string;
  readonly dataDir: string;
  readonly socketDir: string;
  readonly logFile: string;
  port = 0;
  private running = false;
  private destroyed = false;
  private readonly removeOnExit = (): void => this.destroySync();

  private constructor(folder: string) {
    this.folder = folder;
    this.dataDir = join(folder, 'data');
    this.socketDir = join(folder, 'socket');
    this.logFile = join(folder, 'postgres.log');
  }

  /** initdb into a new temporary folder and start the server. */
  static async create(settings: Readonly<Record<string, string>> = {}): Promise<ThrowawayCluster> {
    const folder = mkdtempSync(join(tmpdir(), 'test-postgres-'));
    const cluster = new ThrowawayCluster(folder);
    process.once('exit', cluster.removeOnExit);
    try {
      await cluster.initialise(settings);
      await cluster.start();
      return cluster;
    } catch (error) {
      cluster.destroySync();
      throw error;
    }
  }

  /** The superuser's URL for the `postgres` database (trust authentication, no password). */
  get url(): string {
    return `postgres://${SERVICE_USER}@127.0.0.1:${this.port}/postgres`;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts the server (again) and waits until it accepts connections. A restart keeps the port. */
  async start(): Promise<void> {
    if (this.destroyed) throw new Error('The throwaway PostgreSQL cluster was destroyed');
    if (this.running) return;
    // Another process may take the free port between choosing it and binding it: pick again.
    const firstStart = this.port === 0;
    for (let attempt = 1; ; attempt++) {
      if (firstStart) await this.choosePort();
      try {
        await this.pgCtl(['start', '-w', '-t', '120', '-l', this.logFile]);
        this.running = true;
        return;
      } catch (error) {
        if (!firstStart || attempt >= 5) throw this.withLog(error);
      }
    }
  }

  /** Fast shutdown: open connections are cut, the data stays for `start()`. */
  async stop(): Promise<void> {
    if (!this.running) return;
    await this.pgCtl(['stop', '-w', '-t', '120', '-m', 'fast']);
    this.running = false;
  }

  /**
   * Ends the server as a crash would, keeping the data: `immediate` is pg_ctl's immediate stop
   * (no shutdown checkpoint: the next start runs crash recovery), `kill` sends SIGKILL to the
   * postmaster, whose backends then exit on their own. Either way clients see their connections
   * cut. Resolves once every server process is gone, so that `start()` can follow.
   */
  async crash(how: 'immediate' | 'kill'): Promise<void> {
    if (!this.running) return;
    if (how === 'immediate') {
      await this.pgCtl(['stop', '-w', '-t', '120', '-m', 'immediate']);
    } else {
      const pid = postmasterPid(this.dataDir);
      if (pid === undefined) throw new Error('The throwaway PostgreSQL has no postmaster.pid');
      const children = childrenOf(pid);
      process.kill(pid, 'SIGKILL');
      // A new postmaster refuses to start while a backend of the old one still holds its shared memory.
      await waitUntilGone([pid, ...children]);
    }
    this.running = false;
  }

  /** Stops the server and removes the folder. */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    try {
      await this.stop();
    } finally {
      this.destroySync();
    }
  }

  private async initialise(settings: Readonly<Record<string, string>>): Promise<void> {
    if (!existsSync(join(POSTGRES_BIN_DIR, 'initdb'))) {
      throw new Error(
        `PostgreSQL server binaries not found in ${POSTGRES_BIN_DIR} (apt-get install postgresql, ` +
          'or set TEST_DATABASE_URL to a server the tests may create databases in)',
      );
    }
    if (isRoot()) {
      const { uid, gid } = serviceUserIds();
      chownSync(this.folder, uid, gid);
    }
    await this.asServiceUser('mkdir', ['-m', '700', this.socketDir]);
    await this.asServiceUser(join(POSTGRES_BIN_DIR, 'initdb'), [
      '--pgdata',
      this.dataDir,
      '--username',
      SERVICE_USER,
      '--auth',
      'trust',
      '--encoding',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    // Durability is pointless for throwaway data; these make tests several times faster.
    appendFileSync(
      join(this.dataDir, 'postgresql.conf'),
      [
        '',
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${this.socketDir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        'shared_buffers = 32MB',
        // Later lines win: the caller's settings override the test defaults above.
        ...Object.entries(settings).map(([name, value]) => `${name} = ${value}`),
        '',
      ].join('\n'),
    );
  }

  private async choosePort(): Promise<void> {
    this.port = await freePort();
    appendFileSync(join(this.dataDir, 'postgresql.conf'), `port = ${this.port}\n`);
  }

  private async pgCtl(args: string[]): Promise<void> {
    await this.asServiceUser(join(POSTGRES_BIN_DIR, 'pg_ctl'), ['--pgdata', this.dataDir, ...args]);
  }

  private async asServiceUser(command: string, args: string[]): Promise<void> {
    const [file, argv] = isRoot() ? ['runuser', ['-u', SERVICE_USER, '--', command, ...args]] : [command, args];
    await run(file, argv, { cwd: this.folder, env: { ...process.env, LC_ALL: 'C' } });
  }

  private withLog(error: unknown): Error {
    const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').slice(-2000) : '';
    const message = error instanceof Error ? error.message : String(error);
    return new Error(`Could not start the throwaway PostgreSQL: ${message}\n${log}`);
  }

  /** Synchronous so that it also runs from a process 'exit' handler. */
  private destroySync(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    process.removeListener('exit', this.removeOnExit);
    const pid = postmasterPid(this.dataDir);
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGQUIT'); // immediate shutdown: nothing in it is worth keeping
      } catch {
        // already gone
      }
    }
    this.running = false;
    rmSync(this.folder, { recursive: true, force: true, maxRetries: 5 });
  }
}

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid` (read from /proc, Linux). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The fields after the command name, which is in parentheses and may hold spaces: state, ppid, ...
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

async function waitUntilGone(pids: number[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL processes ${pids.filter(alive).join(', ')} did not exit`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function serviceUserIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${SERVICE_USER}:`));
  const fields = line?.split(':');
  if (!fields || fields.length < 4) {
    throw new Error(`Running as ${userInfo().username}: PostgreSQL needs the system user "${SERVICE_USER}" to run as`);
  }
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
