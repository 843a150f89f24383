/** Runs once when the server starts; the Node.js part validates the PORTAL_* configuration and prepares the ledger. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    await import('./instrumentation-node');
    // Migrations of the intent ledger, or the warning that intent is kept in memory only.
    const { prepareIntentLedger } = await import('./server/backends/ledger/select-ledger');
    await prepareIntentLedger();
  }
}
