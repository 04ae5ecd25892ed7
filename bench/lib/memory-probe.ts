// Loaded into recd for a memory breakdown (BENCH_NODE_ARGS="--import=<dist>/bench/lib/memory-probe.js"):
// every BENCH_MEMORY_SECONDS (5) appends one JSON line to BENCH_MEMORY_FILE with the process's RSS and
// its parts as V8 and Node see them (MiB): the JS heap, array buffers (models, typed arrays; shared
// ones included) and other external memory. RSS minus these is native: threads' heaps, malloc arenas,
// the wasm memory, code. bench/http/reco-synthetic.ts reads nothing of it; it is for a person.
// With BENCH_MEMORY_GC=1 and node's --expose-gc, a full collection runs before each reading, so the
// figures are what is still referenced rather than what awaits collection.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_MEMORY_FILE;
if (file && isMainThread) {
  const mib = (b: number) => Math.round(b / 2 ** 20);
  const t0 = Date.now();
  const collect = process.env.BENCH_MEMORY_GC === '1' ? (globalThis as { gc?: () => void }).gc : undefined;
  const timer = setInterval(
    () => {
      collect?.();
      const m = process.memoryUsage();
      const line = {
        s: Math.round((Date.now() - t0) / 1000),
        rss: mib(m.rss),
        heapUsed: mib(m.heapUsed),
        heapTotal: mib(m.heapTotal),
        arrayBuffers: mib(m.arrayBuffers),
        external: mib(m.external - m.arrayBuffers),
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    },
    1000 * Number(process.env.BENCH_MEMORY_SECONDS ?? 5),
  );
  timer.unref();
}
