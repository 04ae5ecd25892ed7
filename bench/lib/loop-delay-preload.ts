// Loaded into recd by the reco benches (`node --import`): the event loop's delay histogram and the
// garbage collections, written as one JSON line to BENCH_LOOP_DELAY_FILE and reset on each SIGUSR2, so
// every load run reports how long requests held the loop (a timer due every millisecond fires late by
// what ran meanwhile) and how much of that the collector took (a scavenge stops the loop; its cost grows
// with what survives it, so cached per-request objects show up here first).
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const gc = { scavenges: 0, scavengeMs: 0, majors: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = ((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.scavenges++;
        gc.scavengeMs += e.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) {
        gc.majors++;
        gc.majorMs += e.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => ns / 1e6;
    appendFileSync(file, `${JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), count: h.count, ...gc })}\n`);
    h.reset();
    gc.scavenges = gc.scavengeMs = gc.majors = gc.majorMs = 0;
  });
}
