// Plain JavaScript, not next.config.ts: `next start` transpiles a TypeScript config with Next's
// native SWC compiler (on any Node version, unless given an experimental flag), which then stays
// loaded in the production server for nothing.

// The npm workspace root holds the lockfile and node_modules; saying so stops Next from guessing.
const workspaceRoot = new URL('../..', import.meta.url).pathname;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The image (apps/portal/Dockerfile) builds with PORTAL_STANDALONE_BUILD=1: Next's standalone output,
  // the server and only the files it traces as used, instead of every production module. `next start`,
  // which the tests, the sandbox and dev:stack run, does not serve a standalone build, so only the image asks for it.
  ...(process.env.PORTAL_STANDALONE_BUILD === '1' ? { output: 'standalone' } : {}),
  poweredByHeader: false,
  reactStrictMode: true,
  outputFileTracingRoot: workspaceRoot,
  turbopack: { root: workspaceRoot },
  // Packages the server loads from node_modules, as Node resolves them, instead of bundling them.
  // Next.js bundles every route handler and the pages apart, each with its own copy of what it bundles:
  // the Kubernetes client (with the undici it brings), zod and yaml would be loaded, compiled and kept
  // once per route in use, megabytes of source text each (zod's locales make it two bytes a
  // character), where Node loads them once per process (e2e/server-bundles.test.ts).
  // The Azure SDK loads parts of itself at run time (MSAL's managed-identity sources); Node resolves
  // it from node_modules instead of the bundler guessing.
  // The OpenTelemetry SDK patches node:http/https and undici as Node loads them
  // (require-in-the-middle): it must be the modules Node resolves, not a bundled copy.
  serverExternalPackages: [
    '@kubernetes/client-node',
    'zod',
    'yaml',
    '@azure/identity',
    '@azure/arm-storage',
    '@azure/msal-node',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/resources',
    '@opentelemetry/exporter-trace-otlp-proto',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/instrumentation',
    '@opentelemetry/instrumentation-http',
    '@opentelemetry/instrumentation-undici',
  ],
  // Browsers still ask for /favicon.ico on their own (on error pages, for bookmarks); answer with the app icon.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
};

export default nextConfig;
