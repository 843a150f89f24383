import { COUNTER_NAMED_PROCESS_GAUGES } from '@books/shared-rules';
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
    for (const name of COUNTER_NAMED_PROCESS_GAUGES) processRegistry.removeSingleMetric(name);
  }
  return processRegistry;
}
