import type { NextConfig } from 'next';

// The npm workspace root holds the lockfile and node_modules; saying so stops Next from guessing.
const workspaceRoot = new URL('../..', import.meta.url).pathname;

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  outputFileTracingRoot: workspaceRoot,
  turbopack: { root: workspaceRoot },
  // forbidden() and forbidden.tsx: a page a role may not use answers HTTP 403 with a page that says why.
  experimental: { authInterrupts: true },
  // Browsers still ask for /favicon.ico on their own (on error pages, for bookmarks); answer with the app icon.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

export default nextConfig;
