// Loaded into recd by the reco benches (`node --import`): the event loop's delay histogram and the
// garbage collections, written as one JSON line to BENCH_LOOP_DELAY_FILE and reset on each SIGUSR2, so
// every load run reports how long requests held the loop (a timer due every millisecond fires late by
// what ran meanwhile) and how much of that the collector took (a scavenge stops the loop; its cost
// grows with what survives it, so cached per-request objects show up here first).
// A timer also fires late when the process is ready but every core is busy (2 cores shared by the
// servers, Redis and the load generator): `ownP99` is how late, less the time the main thread waited
// for a core meanwhile (its schedstat), which is what the process's own work held the loop.
import { appendFileSync, openSync, readSync } from 'node:fs';
import { constants, createHistogram, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
// The timer's period (ms). Node's histogram records the interval between the timer's callbacks, the
// period included: an idle loop reads ~1.05 ms. What is written is that interval less the period,
// how late the timer fired, so an idle loop reads ~0.
const PERIOD_MS = 1;

if (file) {
  const h = monitorEventLoopDelay({ resolution: PERIOD_MS });
  h.enable();
  const gc = { scavenges: 0, scavengeMs: 0, majors: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        gc.scavenges++;
        gc.scavengeMs += e.duration;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR || kind === constants.NODE_PERFORMANCE_GC_INCREMENTAL) {
        gc.majors++;
        gc.majorMs += e.duration;
      }
    }
  }).observe({ entryTypes: ['gc'] });
  const own = ownLateness();
  process.on('SIGUSR2', () => {
    const late = (ns: number) => Math.max(0, ns / 1e6 - PERIOD_MS);
    const ownP99 = own && own.count > 0 ? own.percentile(99) / 1e6 : NaN;
    appendFileSync(
      file,
      `${JSON.stringify({ p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), count: h.count, ownP99, ...gc })}\n`,
    );
    h.reset();
    own?.reset();
    gc.scavenges = gc.scavengeMs = gc.majors = gc.majorMs = 0;
  });
}

// How late a 1 ms timer of its own fires, less what the main thread spent waiting for a core
// meanwhile (/proc/thread-self/schedstat: ns on a core, ns waiting on the run queue, switches; the
// wait is added when the thread gets a core, so it is current when the timer's callback runs).
// undefined where the kernel keeps no schedstat.
function ownLateness(): ReturnType<typeof createHistogram> | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(128);
  const waited = () => Number(buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0)).split(' ')[1]);
  const period = PERIOD_MS * 1e6,
    hist = createHistogram();
  let at = process.hrtime.bigint(),
    wait = waited();
  setInterval(() => {
    const now = process.hrtime.bigint(),
      w = waited();
    hist.record(Math.max(1, Number(now - at) - period - (w - wait)));
    at = now;
    wait = w;
  }, PERIOD_MS).unref();
  return hist;
}
