// The fixed request mix of `npm run bench`. Reads come first and create comes last in
// every round, so the books a round creates never change what the other routes see.

import type { LoadRequest } from './load.js';

export const SEEDED = {
  cleanCode: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  pragmaticProgrammer: '1a5d9e27-8b16-4d8d-96a0-84b9a91db314',
} as const;

export interface BenchRoute {
  name: string;
  request: LoadRequest;
}

export const ROUTES: readonly BenchRoute[] = [
  { name: 'list', request: { method: 'GET', path: '/api/v1/books?skip=0&limit=20' } },
  { name: 'get', request: { method: 'GET', path: `/api/v1/books/${SEEDED.cleanCode}` } },
  // Matches a handful of the prefilled books: a realistic, selective query.
  { name: 'search', request: { method: 'GET', path: '/api/v1/books/search?q=whitfield&limit=20' } },
  { name: 'status', request: { method: 'HEAD', path: '/api/status' } },
  { name: 'ps', request: { method: 'GET', path: '/api/ps' } },
  {
    name: 'patch',
    // Sets the values the book already has, so every PATCH returns the same body and the
    // baseline can answer it with one precomputed response.
    request: {
      method: 'PATCH',
      path: `/api/v1/books/${SEEDED.pragmaticProgrammer}`,
      body: JSON.stringify({ title: 'The Pragmatic Programmer', year: 2019 }),
    },
  },
  {
    name: 'create',
    request: {
      method: 'POST',
      path: '/api/v1/books',
      body: JSON.stringify({ title: 'Benchmark Book', author: 'Load Generator', year: 2024 }),
    },
  },
];

export function selectRoutes(names: readonly string[] | undefined): BenchRoute[] {
  if (!names) return [...ROUTES];
  const unknown = names.filter((n) => !ROUTES.some((r) => r.name === n));
  if (unknown.length > 0) {
    throw new Error(`unknown route(s) ${unknown.join(', ')}; known: ${ROUTES.map((r) => r.name).join(', ')}`);
  }
  return ROUTES.filter((r) => names.includes(r.name));
}
