import { Registry, type OpenMetricsContentType } from 'prom-client';

type Metric = Parameters<Registry['registerMetric']>[0];

/**
 * One OpenMetrics registry showing the metrics of these Prometheus-format registries. Each metric
 * is registered through a view of its own rather than itself: prom-client's OpenMetrics output
 * renames a counter it prints (it drops `_total` from the registered object's name, then adds it
 * to each sample), which would change the Prometheus text format of the original for good.
 */
export function openMetricsRegistry(sources: readonly Registry[]): Registry<OpenMetricsContentType> {
  const target = new Registry<OpenMetricsContentType>();
  target.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const source of sources) {
    for (const metric of source.getMetricsAsArray() as unknown as Metric[]) target.registerMetric(viewOf(metric));
  }
  return target;
}

interface MetricShape {
  name: string;
  type: string;
  get(): Promise<{ name: string } & Record<string, unknown>>;
}

function viewOf(metric: Metric): Metric {
  const source = metric as unknown as MetricShape;
  const name = source.type === 'counter' ? source.name.replace(/_total$/, '') : source.name;
  const view = {
    name,
    help: (metric as unknown as { help: string }).help,
    type: source.type,
    aggregator: (metric as unknown as { aggregator: string }).aggregator,
    get: async () => ({ ...(await source.get()), name }),
  };
  return view as unknown as Metric;
}
