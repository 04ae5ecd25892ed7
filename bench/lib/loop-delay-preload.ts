// Loaded into recd by the reco benches (`node --import`): the event loop's delay histogram and the
// garbage collections, written as one JSON line to BENCH_LOOP_DELAY_FILE and reset on each SIGUSR2, so
// every load run reports how long requests held the loop (a timer due every millisecond fires late by
// what ran meanwhile) and how much of that the collector took (a scavenge stops the loop; its cost
// grows with what survives it, so cached per-request objects show up here first).
import { appendFileSync } from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
// The timer's period (ms). Node's histogram records the interval between the timer's callbacks, the
// period included: an idle loop reads ~1.05 ms. What is written is that interval less the period,
// how late the timer fired, so an idle loop reads ~0 (RESULTS.md sections before 2026-11-27's
// third session report the interval, about 1 ms more).
const PERIOD_MS = 1;

if (file) {
  const h = monitorEventLoopDelay({ resolution: PERIOD_MS });
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
    const late = (ns: number) => Math.max(0, ns / 1e6 - PERIOD_MS);
    appendFileSync(file, `${JSON.stringify({ p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), count: h.count, ...gc })}\n`);
    h.reset();
    gc.scavenges = gc.scavengeMs = gc.majors = gc.majorMs = 0;
  });
}
