// Stands in for the 'server-only' guard in tests, which import server modules directly.
export {};
