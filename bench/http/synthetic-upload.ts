// The synthetic data set (bench/lib/synthetic.ts): how fast it is generated alone, and how fast it uploads over HTTP for each batch size, requests in flight and codec.
//
//   npx tsc -p . && node dist/bench/http/synthetic-upload.js
//
// First the generator alone at the BENCH_SYNTH_* sizes (bench/lib/synthetic.ts; default 100,000 items,
// 1,000,000 users, 20,000,000 ratings): set-up, every rating generated into typed arrays, then the same
// again encoded as the upload's JSON bodies (and pickle bodies), nothing sent.
// Then, for each entry of BENCH_SYNTH_UPLOAD_GRID (default empty: the generator only), e.g.
// `json:16384x1,json:65536x2,pickle:65536x2` (codec:ratings per request × requests in flight), a fresh recd
// on a private redis-server (bench/lib/recd-stack.ts) gets the whole data set as reco-synthetic.ts sends
// it (bench/lib/synthetic-upload.ts) and the rate is reported. recd trains on its own on the way (the
// 500 · 2^k thresholds) as it does in reco-synthetic.ts; RECD_TRAINING_POLL_MS=3600000 keeps the trainer
// out, to see the ingest path alone. Progress on stderr, the markdown report on stdout.
import os from 'node:os';
import { cpuSeconds } from '../lib/cpu.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { checkBatch, jsonBody, pickleBody, uploadSynthetic, type Codec, type UploadOptions } from '../lib/synthetic-upload.js';

const BATCH = 65_536; // for the generator-alone timing

const grid: UploadOptions[] = (process.env.BENCH_SYNTH_UPLOAD_GRID ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => {
    const m = /^(json|pickle):(\d+)x(\d+)$/.exec(s);
    if (!m) throw new Error(`BENCH_SYNTH_UPLOAD_GRID: ${JSON.stringify(s)} is not codec:batchxinflight (e.g. json:65536x2)`);
    const o = { codec: m[1] as Codec, batch: Number(m[2]), inFlight: Number(m[3]) };
    checkBatch(o);
    return o;
  });

const sizes = synthSizes();
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const out: string[] = [];
out.push(
  `Synthetic data set: ${fmt(sizes.items)} items, ${fmt(sizes.users)} users, ${fmt(sizes.ratings)} ratings, seed ${sizes.seed}; ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  '',
);

// The generator alone: each pass regenerates from scratch (the same data each time).
type Pass = 'generate' | 'generate + JSON bodies' | 'generate + pickle bodies';
const rows: string[] = [];
let data: Synthetic | undefined;
for (const pass of ['generate', 'generate + JSON bodies', 'generate + pickle bodies'] as Pass[]) {
  const t0 = performance.now();
  data = new Synthetic(sizes);
  const setup = (performance.now() - t0) / 1000;
  let n = 0,
    bytes = 0;
  for (const b of data.batches(BATCH)) {
    n += b.n;
    if (pass === 'generate + JSON bodies') bytes += jsonBody(b).byteLength;
    else if (pass === 'generate + pickle bodies') bytes += pickleBody(b).byteLength;
  }
  const seconds = (performance.now() - t0) / 1000;
  const rss = process.memoryUsage().rss;
  process.stderr.write(`${pass}: ${fmt(n)} ratings in ${seconds.toFixed(2)} s (set-up ${setup.toFixed(2)} s)\n`);
  rows.push(
    `| ${pass} | ${setup.toFixed(2)} | ${seconds.toFixed(2)} | ${fmt(n / seconds)} | ${bytes > 0 ? (bytes / 1e6).toFixed(0) : '—'} | ${fmt(rss / 1024 ** 2)} |`,
  );
}
out.push(
  '### The generator alone (one process, nothing sent)',
  '',
  '| Pass | Set-up s | Total s | Ratings/s | Bodies MB | Runner RSS MiB after |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows,
  '',
);
const top = data!.mostActiveUser;
out.push(
  `Shape: the most active user (${top}) has ${fmt(data!.countOf(top))} ratings (cap ${fmt(data!.cap)} beyond the first); the hottest item is ${data!.hottestItem}. Batches of ${fmt(BATCH)}.`,
  '',
);

if (grid.length > 0) {
  out.push(
    '### Upload over HTTP (a fresh recd and redis-server each)',
    '',
    `RECD_TRAINING_POLL_MS=${process.env.RECD_TRAINING_POLL_MS ?? '(default)'}.`,
    '',
    '| Codec | Ratings a request | In flight | Items s | Ratings s | Ratings/s | Bodies MB | recd CPU s | runner CPU s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const o of grid) {
    const stack = await startBenchStack();
    try {
      const cpu0 = cpuSeconds(stack.pid) ?? NaN;
      const self0 = process.cpuUsage();
      const u = await uploadSynthetic(stack.base.replace(/\/v1$/, ''), stack.token, new Synthetic(sizes), o);
      const recdCpu = (cpuSeconds(stack.pid) ?? NaN) - cpu0;
      const self = process.cpuUsage(self0);
      out.push(
        `| ${o.codec} | ${fmt(o.batch)} | ${o.inFlight} | ${u.itemsSeconds.toFixed(1)} | ${u.ratingsSeconds.toFixed(1)} | **${fmt(u.ratings / u.ratingsSeconds)}** | ${(u.bytes / 1e6).toFixed(0)} | ${recdCpu.toFixed(1)} | ${((self.user + self.system) / 1e6).toFixed(1)} |`,
      );
    } finally {
      await stack.stop();
    }
  }
  out.push('', '_recd CPU s_ includes any training that started during the upload; _runner_ generates, encodes and sends.', '');
}
process.stdout.write(`${out.join('\n')}\n`);
