import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { ThrowawayCluster } from './throwaway-cluster.js';

export { ThrowawayCluster, POSTGRES_BIN_DIR, freePort } from './throwaway-cluster.js';

export interface StartPostgresOptions {
  /**
   * Always start a private throwaway cluster, even when TEST_DATABASE_URL is set. Fault tests need
   * this: only a server the tests own can be stopped and restarted.
   */
  ownServer?: boolean;
  /** Use this server (a libpq URL of a role that may create databases) instead of TEST_DATABASE_URL or a cluster. */
  serverUrl?: string;
  /** postgresql.conf settings of a throwaway cluster, over the test defaults (values as written in the file). */
  settings?: Readonly<Record<string, string>>;
}

/** A PostgreSQL server for tests. Every database it creates is dropped (or removed with the cluster) by `stop()`. */
export interface TestPostgres {
  /** URL of the administrative connection (TEST_DATABASE_URL, or the throwaway cluster's `postgres` database). */
  readonly adminUrl: string;
  /** True when this helper started the server itself and can stop and restart it. */
  readonly canRestart: boolean;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Drops a database made by `createDatabase()` (its open connections are cut). */
  dropDatabase(url: string): Promise<void>;
  /** Stops a throwaway server (open connections are cut) keeping its data; throws for TEST_DATABASE_URL. */
  stopServer(): Promise<void>;
  /** Crashes a throwaway server (pg_ctl's immediate stop, or SIGKILL of the postmaster) keeping its data; throws for TEST_DATABASE_URL. */
  crashServer(how: 'immediate' | 'kill'): Promise<void>;
  /** Starts a stopped throwaway server again on the same port. */
  startServer(): Promise<void>;
  /** Drops every database created here; a throwaway cluster is stopped and its folder removed. */
  stop(): Promise<void>;
}

/**
 * Uses the server in TEST_DATABASE_URL when it is set (each `createDatabase()` makes a fresh database in
 * it), otherwise initdb's a throwaway cluster in a temporary folder on a free port.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  if (options.serverUrl) return new DatabasesOnServer(options.serverUrl, undefined);
  const external = process.env.TEST_DATABASE_URL;
  if (external && !options.ownServer) return new DatabasesOnServer(external, undefined);
  const cluster = await ThrowawayCluster.create(options.settings);
  return new DatabasesOnServer(cluster.url, cluster);
}

/** Replaces the database name in a libpq URL, keeping credentials, host and query options. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

class DatabasesOnServer implements TestPostgres {
  private readonly created: string[] = [];

  constructor(
    readonly adminUrl: string,
    private readonly cluster: ThrowawayCluster | undefined,
  ) {}

  get canRestart(): boolean {
    return this.cluster !== undefined;
  }

  async createDatabase(prefix = 'test'): Promise<string> {
    const name = `${prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_')}_${randomBytes(6).toString('hex')}`;
    await this.admin(async (sql) => {
      await sql.unsafe(`CREATE DATABASE "${name}"`);
    });
    this.created.push(name);
    return withDatabase(this.adminUrl, name);
  }

  async dropDatabase(url: string): Promise<void> {
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const index = this.created.indexOf(name);
    if (index === -1) throw new Error(`${name} was not created by this helper`);
    this.created.splice(index, 1);
    await this.admin(async (sql) => {
      await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  }

  async stopServer(): Promise<void> {
    await this.ownCluster().stop();
  }

  async crashServer(how: 'immediate' | 'kill'): Promise<void> {
    await this.ownCluster().crash(how);
  }

  async startServer(): Promise<void> {
    await this.ownCluster().start();
  }

  async stop(): Promise<void> {
    if (this.cluster) {
      await this.cluster.destroy();
      return;
    }
    const names = this.created.splice(0);
    if (names.length === 0) return;
    await this.admin(async (sql) => {
      for (const name of names) await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  }

  private ownCluster(): ThrowawayCluster {
    if (!this.cluster) {
      throw new Error('The server in TEST_DATABASE_URL is not ours to stop: use startPostgres({ ownServer: true })');
    }
    return this.cluster;
  }

  private async admin(work: (sql: postgres.Sql) => Promise<void>): Promise<void> {
    const sql = postgres(this.adminUrl, { max: 1, onnotice: () => undefined });
    try {
      await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }
}
