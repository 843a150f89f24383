// The server of `npm run bench:scale`: the production build (dist/), configured and logging
// exactly as `npm start` does, but started with its in-memory store already holding <size>
// synthetic books. Creating a million books over HTTP would take longer than the benchmark;
// here they go through the store's own create(), the call the POST route makes after
// validation, so the data structures are the ones HTTP creates build. No production code
// or environment variable exists for this: it is a benchmark tool only.
//
// Usage (the harness starts it with an IPC channel):
//   node --expose-gc --import tsx bench/scale-server.ts <size> <port>
// Messages: it sends {type:'ready', fillMs} once listening; it answers {type:'memory'}
// with {type:'memory', rss, heapUsed, arrayBuffers} measured after a full GC.

import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { syntheticBooks } from './lib/book-generator.js';

type AppModule = typeof import('../src/app.js');
type ConfigModule = typeof import('../src/config.js');
type LoggerModule = typeof import('../src/logger.js');
type StorePluginModule = typeof import('../src/plugins/app/book-store.js');

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const fromDist = <T>(file: string) => import(pathToFileURL(join(DIST, file)).href) as Promise<T>;

const [sizeText, portText] = process.argv.slice(2);
const size = Number(sizeText);
if (!Number.isInteger(size) || size < 0 || !portText) {
  console.error('usage: scale-server.ts <size> <port>');
  process.exit(2);
}

const { buildApp } = await fromDist<AppModule>('app.js');
const { loadConfig } = await fromDist<ConfigModule>('config.js');
const { createLogger } = await fromDist<LoggerModule>('logger.js');
const { createSeededStore } = await fromDist<StorePluginModule>('plugins/app/book-store.js');

const config = loadConfig({ ...process.env, PORT: portText, HOST: '127.0.0.1' });
const store = createSeededStore();
const started = performance.now();
const books = syntheticBooks();
for (let i = 0; i < size; i++)
  await store.create(books.next().value as { title: string; author: string; year: number });
const fillMs = performance.now() - started;

const logger = await createLogger(config.logLevel);
const app = await buildApp({ config, logger, store });
await app.listen({ host: config.host, port: config.port });
process.send?.({ type: 'ready', fillMs });

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'memory') return;
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  process.send?.({ type: 'memory', rss, heapUsed, arrayBuffers });
});
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
// The harness owns this process: if it goes away, so do we.
process.on('disconnect', () => process.exit(0));
