// The process's Prometheus metrics (prom-client): one registry per process; a supervisor's workers
// each serve their own (src/metrics/listener.ts). The hot path only looks children up: every label
// combination of the request histogram is made here, once.
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// Seconds; the fast end matters (warm recommendations answer well under a millisecond).
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
// The label of requests that matched no route (or were refused before routing), and of the greeting
// at the API's root (its group is the empty first segment).
const OTHER_GROUP = 'other';
const ROOT_GROUP = 'root';

type Child = ReturnType<Histogram<'group' | 'status'>['labels']>;

export class Metrics {
  readonly registry = new Registry();
  // Per route group, one child per status class (index: status / 100 - 1).
  private readonly requests = new Map<string | undefined, Child[]>();

  // groups: the route groups (first path segment of each route, as the dispatcher names them); worker: the supervisor's worker number, if any.
  constructor(groups: Iterable<string>, worker: number | undefined) {
    if (worker !== undefined) this.registry.setDefaultLabels({ worker: String(worker) });
    // Includes nodejs_eventloop_lag_* (event-loop delay, from monitorEventLoopDelay), heap, GC and CPU.
    collectDefaultMetrics({ register: this.registry });
    const histogram = new Histogram({
      name: 'recd_http_request_duration_seconds',
      help: 'HTTP requests by route group and status class: latency (its _count is the request count)',
      labelNames: ['group', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    });
    const children = (group: string) => STATUS_CLASSES.map((status) => histogram.labels({ group, status }));
    for (const group of groups) this.requests.set(group, children(group === '' ? ROOT_GROUP : group));
    this.requests.set(undefined, children(OTHER_GROUP));
  }

  // A finished request: its group, status and latency in milliseconds.
  request(group: string | undefined, status: number, ms: number): void {
    const children = this.requests.get(group) ?? this.requests.get(undefined)!;
    children[Math.min(Math.max(Math.trunc(status / 100), 1), 5) - 1]!.observe(ms / 1000);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
