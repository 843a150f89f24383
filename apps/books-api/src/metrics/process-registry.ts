import { collectDefaultMetrics, Registry } from 'prom-client';

// Process and runtime metrics describe the whole Node.js process, not one app instance, and
// collecting them installs process-wide observers (GC, event-loop delay). They therefore live
// in one registry per process, created on first use, while each app keeps its own registry
// for its request and store metrics (so tests that build several apps never collide).
let processRegistry: Registry | undefined;

export function getProcessRegistry(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    // prom-client also reports each of these gauges' sum under a counter's _total suffix, which
    // Prometheus's naming rules (promtool check metrics) reject; the by-type gauges without the
    // suffix (nodejs_active_handles ...) stay, and sum() over them gives the total.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}
