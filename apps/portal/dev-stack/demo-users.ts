import type { TestUser } from '../e2e/test-identity-provider.js';

/**
 * The people of `npm run dev:stack`'s local OpenID Provider, one per portal role, with their Books API
 * roles for the API's tokens. DEMO ONLY: their
 * passwords are public (printed at start and written here); the provider listens on loopback only.
 */
export const DEMO_PORTAL_USERS: readonly (TestUser & { role: string })[] = [
  {
    login: 'demo-admin',
    password: 'demo-admin-password',
    email: 'demo-admin@example.com',
    name: 'Demo Admin',
    groups: ['platform-admins'],
    apiRoles: ['Books.Read', 'Books.Write'],
    role: 'admin',
  },
  {
    login: 'demo-requester',
    password: 'demo-requester-password',
    email: 'demo-requester@example.com',
    name: 'Demo Requester',
    groups: ['developers'],
    apiRoles: ['Books.Read', 'Books.Write'],
    role: 'requester',
  },
  {
    login: 'demo-viewer',
    password: 'demo-viewer-password',
    email: 'demo-viewer@example.com',
    name: 'Demo Viewer',
    groups: [],
    apiRoles: ['Books.Read'],
    role: 'viewer',
  },
];
