/**
 * prom-client's default metrics also report the sums of nodejs_active_handles, _requests and
 * _resources as gauges with a counter's _total suffix, which Prometheus's naming rules
 * (`promtool check metrics`) reject. Both apps remove these from the registry their process metrics
 * live in; the by-type gauges without the suffix stay, and sum() over them gives the totals.
 */
export const COUNTER_NAMED_PROCESS_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;
