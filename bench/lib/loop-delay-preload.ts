// Loaded into recd by the reco benches (`node --import`): the event loop's delay histogram, written
// as one JSON line to BENCH_LOOP_DELAY_FILE and reset on each SIGUSR2, so every load run reports how
// long requests held the loop (a timer due every millisecond fires late by what ran meanwhile).
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => ns / 1e6;
    appendFileSync(file, `${JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), count: h.count })}\n`);
    h.reset();
  });
}
