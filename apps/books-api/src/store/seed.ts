import type { BookCreate } from '../schemas/book.js';

/** The contract's seeded books, with their fixed ids, in list order. */
export const SEED_BOOKS: readonly (BookCreate & { id: string })[] = [
  { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', title: 'Clean Code', author: 'Robert C. Martin', year: 2008 },
  {
    id: '1a5d9e27-8b16-4d8d-96a0-84b9a91db314',
    title: 'The Pragmatic Programmer',
    author: 'David Thomas, Andrew Hunt',
    year: 2019,
  },
  {
    id: '6f4048c8-cf4c-4f0f-92d1-84a74fe7cb0d',
    title: 'Designing Data-Intensive Applications',
    author: 'Martin Kleppmann',
    year: 2017,
  },
];
