// The process's Prometheus metrics (prom-client): one registry per process; a supervisor's workers
// each serve their own (src/metrics/listener.ts). The hot path only looks children up: every label
// combination of the request histogram is made here, once.
import { createRequire } from 'node:module';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram.js';

// prom-client's default collectors but its GC one: that one keeps a PerformanceObserver of every
// garbage collection, and with it the whole serving process ran 15-20 % slower under saturating load
// (bench/RESULTS.md, "Operations: recd import, call counts and metrics"); the others read their values when scraped. They
// are loaded one by one, as collectDefaultMetrics() loads them, since it has no way to leave one out.
const require = createRequire(import.meta.url);
const DEFAULT_COLLECTORS = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
];
type Collector = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

// Seconds; the fast end matters (warm recommendations answer well under a millisecond).
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TRAINING_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
// The label of requests that matched no route (or were refused before routing), and of the greeting
// at the API's root (its group is the empty first segment).
const OTHER_GROUP = 'other';
const ROOT_GROUP = 'root';

export class Metrics {
  readonly registry = new Registry();
  // Per route group, one child per status class (index: status / 100 - 1).
  private readonly requests = new Map<string | undefined, number[]>();
  private readonly histogram: FastHistogram;

  // worker: the supervisor's worker number, if any (a label on every series).
  constructor(worker: number | undefined) {
    if (worker !== undefined) this.registry.setDefaultLabels({ worker: String(worker) });
    // nodejs_eventloop_lag_* (event-loop delay, from monitorEventLoopDelay), heap, CPU, handles.
    for (const name of DEFAULT_COLLECTORS)
      (require(`prom-client/lib/metrics/${name}`) as Collector)(this.registry, { eventLoopMonitoringPrecision: 10 });
    this.histogram = new FastHistogram(
      'recd_http_request_duration_seconds',
      'HTTP requests by route group and status class: latency (its _count is the request count)',
      LATENCY_BUCKETS,
      this.registry,
    );
    this.requests.set(undefined, this.children(OTHER_GROUP));
  }

  // The route groups (first path segment of each route, as the dispatcher names them).
  routeGroups(groups: Iterable<string>): void {
    for (const group of groups) this.requests.set(group, this.children(group === '' ? ROOT_GROUP : group));
  }

  private children(group: string): number[] {
    return STATUS_CLASSES.map((status) => this.histogram.child({ group, status }));
  }

  // Counts kept elsewhere as plain numbers that only grow, read when scraped: the hot path pays one
  // increment of a field. labels: the keys of what read() returns.
  countersOf<K extends string>(name: string, help: string, label: string, read: () => Record<K, number>): void {
    const seen: Partial<Record<K, number>> = {};
    new Counter({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect() {
        const now = read();
        for (const key in now) {
          const delta = now[key] - (seen[key] ?? 0);
          seen[key] = now[key];
          this.inc({ [label]: key }, delta);
        }
      },
    });
  }

  // Counters of several labels each, read from running totals when scraped (as countersOf).
  seriesOf(name: string, help: string, labelNames: string[], read: () => Iterable<[Record<string, string>, number]>): void {
    const seen = new Map<string, number>();
    new Counter({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        for (const [labels, total] of read()) {
          const key = labelNames.map((l) => labels[l]).join('\u0000');
          const delta = total - (seen.get(key) ?? 0);
          seen.set(key, total);
          this.inc(labels, delta);
        }
      },
    });
  }

  // A finished request: its group, status and latency in milliseconds.
  request(group: string | undefined, status: number, ms: number): void {
    const children = this.requests.get(group) ?? this.requests.get(undefined)!;
    this.histogram.observe(children[Math.min(Math.max(Math.trunc(status / 100), 1), 5) - 1]!, ms / 1000);
  }

  // Redis commands: latency by outcome (ok, error); children made once.
  redisCommands(): (ms: number, failed: boolean) => void {
    const histogram = new FastHistogram(
      'recd_redis_command_duration_seconds',
      'Redis commands of the main connection by outcome (ok, error: a failure or timeout): latency (its _count is the command count)',
      LATENCY_BUCKETS,
      this.registry,
    );
    const ok = histogram.child({ outcome: 'ok' }),
      error = histogram.child({ outcome: 'error' });
    return (ms, failed) => histogram.observe(failed ? error : ok, ms / 1000);
  }

  // Requests refused for a storage fault, by fault; children made once.
  storageFaults(faults: readonly string[]): (fault: string) => void {
    const counter = new Counter({
      name: 'recd_storage_faults_total',
      help: 'requests answered 503 for a storage fault, by fault: unavailable (Redis away or stalled), read_only, full (maxmemory reached), evicting (maxmemory-policy not noeviction)',
      labelNames: ['fault'],
      registers: [this.registry],
    });
    const children = new Map(faults.map((f) => [f, counter.labels({ fault: f })]));
    return (fault) => children.get(fault)!.inc();
  }

  // Training runs: counted when they start and end (by how), their durations by task and ending.
  trainingRuns(): (task: string, phase: string, seconds: number) => void {
    const runs = new Counter({
      name: 'recd_training_runs_total',
      help: 'training runs of this process by task and phase: started, then completed, failed or interrupted (running now: started minus the others)',
      labelNames: ['task', 'phase'],
      registers: [this.registry],
    });
    const durations = new Histogram({
      name: 'recd_training_run_duration_seconds',
      help: 'training runs by task and ending: duration',
      labelNames: ['task', 'phase'],
      buckets: TRAINING_BUCKETS,
      registers: [this.registry],
    });
    return (task, phase, seconds) => {
      runs.inc({ task, phase });
      if (phase !== 'started') durations.observe({ task, phase }, seconds);
    };
  }

  // Per database, gauges read when scraped (the models this process holds).
  perDatabase(name: string, help: string, read: () => Iterable<[string, number]>): void {
    new Gauge({
      name,
      help,
      labelNames: ['db'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [db, value] of read()) this.set({ db }, value);
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
