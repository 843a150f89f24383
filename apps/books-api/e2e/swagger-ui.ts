// What the browser tests of /docs share: the API on a loopback port, and how Swagger UI shows an answer.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Locator } from 'playwright-core';

// Generous: two cores are shared with other suites.
export const RENDER_TIMEOUT_MS = 60_000;

/** Listens on a free loopback port and answers the origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** The status code Swagger UI shows for an operation's latest "Execute", once it shows one. */
export async function answeredStatus(operation: Locator): Promise<string> {
  // The first row of the table is its header ("Code"); the answer's row holds a status number.
  const status = operation
    .locator('.live-responses-table .response-col_status')
    .filter({ hasText: /^\s*\d{3}/ })
    .first();
  await status.waitFor({ timeout: RENDER_TIMEOUT_MS });
  return (await status.innerText()).trim();
}
