/**
 * What the shipped manifests protect: the Books API requires tokens and reads its secrets from
 * Secrets, each app has its own PostgreSQL role, not a superuser, made by the database-init Job (its
 * script run here against a real PostgreSQL), and the images come from the kustomization's images:
 * block (the network paths: kubernetes-network-policies.test.ts). No kubectl needed: these read
 * the files the kustomization lists.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { ThrowawayCluster, withDatabase } from '@books/test-postgres';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findManifest, kustomization, loadManifests, type Manifest } from './deploy-manifests';

const run = promisify(execFile);
const manifests = loadManifests();
const POSTGRES_BIN = process.env['PG_BIN_DIR'] ?? '/usr/lib/postgresql/15/bin';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { containerPort: number }[];
  env?: EnvVar[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}
const podSpec = (m: Manifest) => (m['spec'] as { template: { spec: PodSpec } }).template.spec;
const env = (m: Manifest) => new Map((podSpec(m).containers[0]?.env ?? []).map((v) => [v.name, v]));

describe('the Books API as shipped', () => {
  const api = findManifest(manifests, 'Deployment', 'books-api');

  it('requires a token on every books route', () => {
    expect(env(api).get('AUTH_REQUIRED')?.value).toBe('true');
  });

  it('reads its signing secret from a Secret it cannot start without', () => {
    expect(env(api).get('JWT_SECRET_KEY')?.value).toBeUndefined();
    expect(env(api).get('JWT_SECRET_KEY')?.valueFrom?.secretKeyRef).toEqual({ name: 'books-api-jwt', key: 'secret' });
  });

  it('reads its users file from a Secret, mounted read-only', () => {
    const usersFile = env(api).get('USERS_FILE')?.value ?? '';
    const mount = podSpec(api).containers[0]?.volumeMounts?.find((m) => usersFile.startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const volume = podSpec(api).volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toBe('books-api-users');
  });
});

describe('images', () => {
  it('name every app image in the kustomization images: block with a registry and a tag', () => {
    const images = new Map((kustomization().images ?? []).map((image) => [image.name, image]));
    const appImages = manifests
      .filter((m) => m.kind === 'Deployment')
      .flatMap((m) => podSpec(m).containers.map((c) => c.image.split(':')[0] ?? ''));
    expect(appImages.sort()).toEqual(['books-api', 'books-portal']);
    for (const name of appImages) {
      expect(images.get(name)?.newName, name).toMatch(/^[\w.-]+(:\d+)?\/.+\/?/);
      expect(images.get(name)?.newTag, name).toMatch(/^[\w.-]+$/);
    }
  });
});

/** A Dockerfile's stages: the FROM line's image and alias, and the stage's lines. */
function stages(dockerfile: string): { from: string; name: string; lines: string[] }[] {
  const text = readFileSync(new URL(`../../../${dockerfile}`, import.meta.url), 'utf8').replace(/\\\n/g, ' ');
  const result: { from: string; name: string; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) result.push({ from: from[1] ?? '', name: from[2] ?? '', lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe('the images', () => {
  for (const dockerfile of ['apps/books-api/Dockerfile', 'apps/portal/Dockerfile']) {
    it(`${dockerfile} builds on the Active LTS line, Node.js 26, slim`, () => {
      const text = readFileSync(new URL(`../../../${dockerfile}`, import.meta.url), 'utf8');
      expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(text)?.[1]).toMatch(/^node:26(\.[\d.]+)?-[a-z]+-slim$/);
      for (const stage of stages(dockerfile)) expect(stage.from).toMatch(/^\$\{NODE_IMAGE\}$/);
    });
  }

  it("builds argon2's binding from source with its install script, compilers only in a build stage", () => {
    const all = stages('apps/books-api/Dockerfile');
    const runtime = all.at(-1);
    const copiedModules = (runtime?.lines ?? [])
      .map((line) => /^COPY --from=(\S+) \S*node_modules/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(copiedModules.length).toBeGreaterThan(0);
    for (const name of new Set(copiedModules)) {
      const stage = all.find((candidate) => candidate.name === name);
      const body = stage?.lines.join('\n') ?? '';
      expect(body, name).toMatch(/apt-get install -y --no-install-recommends python3 make g\+\+/);
      // --ignore-scripts skips argon2's install script too, so the stage must run it afterwards.
      expect(body.indexOf('npm_config_build_from_source=true npm rebuild argon2'), name).toBeGreaterThan(
        body.indexOf('npm ci'),
      );
    }
    expect(runtime?.lines.join('\n')).not.toMatch(/apt-get|g\+\+|python3/);
  });

  it("runs the portal from Next's standalone output with its Node options, no node_modules copied beside it", () => {
    const all = stages('apps/portal/Dockerfile');
    const build = all.find((stage) => stage.name === 'build')?.lines.join('\n') ?? '';
    expect(build).toMatch(/PORTAL_STANDALONE_BUILD=1 npm run build --workspace apps\/portal/);
    const runtime = all.at(-1)?.lines ?? [];
    expect(runtime).toContain('COPY --from=build /app/apps/portal/.next/standalone ./');
    expect(runtime).toContain('COPY --from=build /app/apps/portal/.next/static ./apps/portal/.next/static');
    expect(runtime.filter((line) => /^COPY .*node_modules/.test(line))).toEqual([]);
    // The heap's sizes travel with the server (node-options.env; test/server-heap.test.ts).
    expect(runtime).toContain('COPY --from=build /app/apps/portal/node-options.env ./apps/portal/');
    expect(runtime).toContain('CMD ["node", "--env-file=node-options.env", "server.js"]');
    const config = readFileSync(new URL('../next.config.mjs', import.meta.url), 'utf8');
    expect(config).toMatch(/PORTAL_STANDALONE_BUILD === '1' \? \{ output: 'standalone' \}/);
  });
});

/* ------------------------------------------------------------------------------------------------
 * The database-init Job: its script, from the ConfigMap, against a real PostgreSQL.
 */
describe('the database-init Job', () => {
  const job = findManifest(manifests, 'Job', 'books-database-init');
  const configMap = findManifest(manifests, 'ConfigMap', 'books-database-init');
  const script = (configMap['data'] as Record<string, string>)['init-databases.sh'] ?? '';
  let cluster: ThrowawayCluster;

  beforeAll(async () => {
    cluster = await ThrowawayCluster.create();
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  /** Runs the script as the Job's container would, with this cluster as books-postgres. */
  async function runJob(passwords: { booksApi: string; portal: string }): Promise<string> {
    const { stdout } = await run('bash', ['-c', script], {
      env: {
        ...process.env,
        PATH: `${POSTGRES_BIN}:${process.env['PATH'] ?? ''}`,
        PGHOST: '127.0.0.1',
        PGPORT: String(cluster.port),
        PGUSER: 'postgres',
        BOOKS_API_DATABASE_PASSWORD: passwords.booksApi,
        PORTAL_DATABASE_PASSWORD: passwords.portal,
      },
      timeout: 60_000,
    });
    return stdout;
  }

  it('runs that script with the superuser password and each app password from their Secrets', () => {
    const container = podSpec(job).containers[0];
    expect(container?.command).toEqual(['bash', '/scripts/init-databases.sh']);
    const mount = container?.volumeMounts?.find((m) => m.mountPath === '/scripts');
    expect(podSpec(job).volumes?.find((v) => v.name === mount?.name)?.configMap?.name).toBe('books-database-init');
    const secrets = Object.fromEntries(
      (container?.env ?? []).filter((v) => v.valueFrom).map((v) => [v.name, v.valueFrom?.secretKeyRef]),
    );
    expect(secrets).toEqual({
      PGPASSWORD: { name: 'books-postgres', key: 'password' },
      BOOKS_API_DATABASE_PASSWORD: { name: 'books-api-database', key: 'password' },
      PORTAL_DATABASE_PASSWORD: { name: 'books-portal-database', key: 'password' },
    });
    expect(env(job).get('PGHOST')?.value).toBe('books-postgres');
  });

  it('makes each app a login role with a password that is no superuser, owning its own database, and runs again', async () => {
    // Twice, as after a re-apply: the second run finds everything made and only sets the passwords again.
    await runJob({ booksApi: 'first-books-password', portal: 'first-portal-password' });
    expect(await runJob({ booksApi: 'second-books-password', portal: 'first-portal-password' })).toMatch(/ready/);
    const admin = postgres(cluster.url, { max: 1, onnotice: () => undefined });
    try {
      const passwords = await admin<{ rolname: string; rolpassword: string | null }[]>`
        select rolname, rolpassword from pg_authid where rolname in ('books_api', 'portal') order by rolname`;
      expect(passwords.map((row) => [row.rolname, row.rolpassword?.startsWith('SCRAM-SHA-256$')])).toEqual([
        ['books_api', true],
        ['portal', true],
      ]);
      const roles = await admin<
        { rolname: string; rolsuper: boolean; rolcreatedb: boolean; rolcreaterole: boolean; rolcanlogin: boolean }[]
      >`select rolname, rolsuper, rolcreatedb, rolcreaterole, rolcanlogin from pg_roles
        where rolname in ('books_api', 'portal') order by rolname`;
      expect(roles).toEqual([
        { rolname: 'books_api', rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolcanlogin: true },
        { rolname: 'portal', rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolcanlogin: true },
      ]);
      const owners = await admin<{ datname: string; owner: string }[]>`
        select datname, pg_get_userbyid(datdba) as owner from pg_database
        where datname in ('books', 'portal') order by datname`;
      expect(owners).toEqual([
        { datname: 'books', owner: 'books_api' },
        { datname: 'portal', owner: 'portal' },
      ]);
    } finally {
      await admin.end();
    }
  }, 120_000);

  it("lets the API's role run its first migration's extension and tables, and keeps each role out of the other's database", async () => {
    await runJob({ booksApi: 'books-password', portal: 'portal-password' });
    const as = (role: string, database: string) => {
      const url = new URL(withDatabase(cluster.url, database));
      url.username = role;
      return postgres(url.toString(), { max: 1, onnotice: () => undefined });
    };
    const books = as('books_api', 'books');
    try {
      // pg_trgm is a trusted extension: the database's owner may create it, no superuser needed.
      await books`create extension if not exists pg_trgm`;
      await books`create table if not exists probe (id int primary key)`;
      await books`drop table probe`;
    } finally {
      await books.end();
    }
    for (const [role, database] of [
      ['portal', 'books'],
      ['books_api', 'portal'],
    ] as const) {
      const intruder = as(role, database);
      await expect(intruder`select 1`, `${role} in ${database}`).rejects.toThrow(/permission denied/);
      await intruder.end();
    }
  }, 120_000);
});
