import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from './server-process.js';

/**
 * A refused URL variable stops the real server process naming the variable, and what it prints
 * holds neither the user nor the password the value carried (contract: "Configuration errors").
 */
const USER = 'books-db-user';
const PASSWORD = 'pa55-W0rd-n0t-for-logs';

const cases: [variable: string, value: string, extra: Record<string, string>][] = [
  // A port that is no number: nothing parses, so nothing is quoted.
  ['DATABASE_URL', `postgres://${USER}:${PASSWORD}@db.example:port/books`, {}],
  // No scheme: URL parsing reads the user as the scheme and the password as the path.
  ['DATABASE_URL', `${USER}:${PASSWORD}@db.example:5432/books`, {}],
  ['DATABASE_URL', `mysql://${USER}:${PASSWORD}@db.example/books`, {}],
  ['AUTH_OIDC_ISSUER', `http://${USER}:${PASSWORD}@idp.example/realms/books`, { AUTH_OIDC_AUDIENCE: 'books' }],
];

for (const [variable, value, extra] of cases) {
  test(`a refused ${variable} (${value.replace(PASSWORD, '<password>')}) exits 1 without printing its credentials`, async () => {
    const server = startServer({ [variable]: value, ...extra });
    const { code, stderr } = await server.exit;
    const printed = `${stderr}\n${server.lines.join('\n')}`;
    assert.equal(code, 1, printed);
    assert.match(stderr, new RegExp(variable));
    assert.doesNotMatch(printed, new RegExp(PASSWORD));
    assert.doesNotMatch(printed, new RegExp(USER));
  });
}
