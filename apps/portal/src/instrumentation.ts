/** Runs once when the server starts; the Node.js part validates the PORTAL_* configuration. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./instrumentation-node');
  }
}
