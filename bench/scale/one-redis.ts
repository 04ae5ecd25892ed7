// How far one database goes on one Redis (issue 21, docs/scale.md): what its ratings cost Redis in
// memory and in CPU, what they cost recd to train and serve, on the power-law synthetic catalogue.
//
//   npm run build && node dist/bench/scale/one-redis.js
//
// A fresh recd on a private redis-server (bench/lib/recd-stack.ts), the trainer kept out while the data
// goes in (RECD_TRAINING_POLL_MS, so the upload is the write path alone); the catalogue of
// bench/lib/synthetic.ts at the BENCH_SYNTH_* sizes (default 100,000 items, 1,000,000 users, 20,000,000
// ratings) uploaded as the Python clients send it (pickle, bench/lib/synthetic-upload.ts). Then:
// - Redis: used_memory and its dataset part, per rating; its CPU seconds over the upload (INFO cpu), per
//   rating, and the ratings a second one Redis core would take at that cost; the keys by kind (ids
//   replaced by N), counted with SCAN and weighed with MEMORY USAGE (every key of a kind with fewer than
//   2,000 keys, else every SAMPLE_EVERY-th), so what grows with ratings, users and items shows.
// - With BENCH_SCALE_TRAIN=1 (default 1): a retrain (bench/lib/retrain.ts), its seconds, recd's peak
//   RSS (VmHWM) and the model's bytes.
// Progress on stderr, the markdown report on stdout. A small check run:
//   BENCH_SYNTH_ITEMS=5000 BENCH_SYNTH_USERS=20000 BENCH_SYNTH_RATINGS=300000 node dist/bench/scale/one-redis.js
import os from 'node:os';
import { Redis } from 'ioredis';
import { cpuSeconds } from '../lib/cpu.js';
import { redisCpuSeconds, redisMemory } from '../lib/private-redis.js';
import { startBenchStack } from '../lib/recd-stack.js';
import { fmtInt, gitState } from '../lib/report.js';
import { retrain } from '../lib/retrain.js';
import { rssOf } from '../lib/rss.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';
import { uploadSynthetic } from '../lib/synthetic-upload.js';

const SAMPLE_EVERY = 50;
const FACTORS = process.env.RECD_ALS_FACTORS || '32';
const TRAIN = process.env.BENCH_SCALE_TRAIN !== '0';

const sizes = synthSizes();
const mib = (bytes: number) => `${fmtInt(bytes / 1024 ** 2)} MiB`;

// A key's kind: its hash tag's id, uuids and every run of digits replaced, so one user's key and
// another's (one model's and the next's) agree.
const kindOf = (key: string) =>
  key
    .replace(/\{(db|org):[^}]*\}/g, '{$1}')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
    .replace(/[0-9]+/g, 'N');

async function keysByKind(redis: Redis): Promise<{ kind: string; keys: number; bytes: number; weighed: number }[]> {
  const kinds = new Map<string, { keys: number; sample: string[] }>();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'COUNT', 10_000);
    cursor = next;
    for (const key of found) {
      const k = kindOf(key);
      const entry = kinds.get(k) ?? { keys: 0, sample: [] };
      entry.keys++;
      if (entry.keys < 2_000 || entry.keys % SAMPLE_EVERY === 0) entry.sample.push(key);
      kinds.set(k, entry);
    }
  } while (cursor !== '0');
  const out = [];
  for (const [kind, { keys, sample }] of kinds) {
    // Below 2,000 keys every key is weighed; past it the first 2,000 and every SAMPLE_EVERY-th after.
    let weighedBytes = 0;
    for (const key of sample) weighedBytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
    out.push({ kind, keys, bytes: (weighedBytes / sample.length) * keys, weighed: sample.length });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

// The kinds holding at least 0.1 % of `total` bytes, largest first.
function kindTable(kinds: Awaited<ReturnType<typeof keysByKind>>, total: number, ratings: number): string[] {
  return [
    '| key kind | keys | MiB (estimated) | share | bytes per rating | keys weighed |',
    '|---|---:|---:|---:|---:|---:|',
    ...kinds
      .filter((k) => k.bytes > 0.001 * total)
      .map((k) => `| \`${k.kind}\` | ${fmtInt(k.keys)} | ${fmtInt(k.bytes / 1024 ** 2)} | ${((k.bytes / total) * 100).toFixed(1)} % | ${(k.bytes / ratings).toFixed(2)} | ${fmtInt(k.weighed)} |`),
  ];
}

process.env.RECD_TRAINING_POLL_MS = '3600000';
process.env.RECD_ALS_FACTORS = FACTORS;
const stack = await startBenchStack();
const redis = new Redis(stack.redisUrl);
const out: string[] = [];
try {
  const base = stack.base.replace(/\/v1$/, '');
  const memory0 = await redisMemory(redis);
  const cpu0 = await redisCpuSeconds(redis);
  const recdCpu0 = cpuSeconds(stack.pid) ?? NaN;
  const data = new Synthetic(sizes);
  const up = await uploadSynthetic(base, stack.token, data, { codec: 'pickle', batch: 65_536, inFlight: 2 });
  const redisSeconds = (await redisCpuSeconds(redis)) - cpu0;
  const recdSeconds = (cpuSeconds(stack.pid) ?? NaN) - recdCpu0;
  const memory = await redisMemory(redis);
  const used = memory.used - memory0.used;
  const dataset = memory.dataset - memory0.dataset;
  process.stderr.write(`upload done: ${fmtInt(up.ratings)} ratings in ${up.ratingsSeconds.toFixed(1)} s; Redis ${mib(used)}\n`);
  const kinds = await keysByKind(redis);
  const usPerRating = (redisSeconds / up.ratings) * 1e6;

  out.push(
    `### One database on one Redis: ${fmtInt(sizes.items)} items, ${fmtInt(sizes.users)} users, ${fmtInt(sizes.ratings)} ratings`,
    '',
    `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}; ${new Date().toISOString()}; ${gitState()}`,
    `- Upload (pickle, 65,536 ratings a request, 2 in flight, trainer kept out): items ${up.itemsSeconds.toFixed(1)} s, ratings ${up.ratingsSeconds.toFixed(1)} s = **${fmtInt(up.ratings / up.ratingsSeconds)} ratings/s**; recd ${recdSeconds.toFixed(1)} CPU s, Redis ${redisSeconds.toFixed(1)} CPU s`,
    `- Redis CPU per rating written: **${usPerRating.toFixed(2)} µs**, so one Redis core would take ~${fmtInt(1e6 / usPerRating)} ratings/s of bulk writes at this cost`,
    `- Redis memory for the data set: used_memory +${mib(used)} (**${(used / up.ratings).toFixed(1)} bytes per rating**), of which dataset +${mib(dataset)}; used_memory ${mib(memory.used)}, RSS ${mib(memory.rss)}`,
    '',
    ...kindTable(kinds, used, up.ratings),
    '',
  );

  if (TRAIN) {
    // The trainer was kept out of the upload: a process whose trainer polls as usual picks the retrain up.
    await stack.restart({ RECD_TRAINING_POLL_MS: '1000' });
    const before = await rssOf(stack.pid);
    const trained = await retrain(base, stack.token, FACTORS, up.ratings);
    const after = await rssOf(stack.pid);
    const memoryTrained = await redisMemory(redis);
    const kindsTrained = await keysByKind(redis);
    out.push(
      `- Training (${FACTORS} factors, the service's defaults otherwise): the retrain took ${trained.retrainSeconds.toFixed(1)} s (task ${trained.taskSeconds.toFixed(1)} s); model ${fmtInt(Number(trained.model.bytes))} bytes (${mib(Number(trained.model.bytes))}); recd RSS ${before ? mib(before.rssBytes) : '?'} before, peak ${after ? mib(after.peakBytes) : '?'}, ${after ? mib(after.rssBytes) : '?'} after; Redis used_memory ${mib(memoryTrained.used)} with the model stored`,
      `- Model: ${JSON.stringify({ algorithm: trained.model.algorithm, n_users: trained.model.n_users, n_items: trained.model.n_items, item_list: trained.model.item_list, user_list: trained.model.user_list, metrics: trained.model.metrics })}`,
      '',
      'Redis after the training (the log compacted into the snapshot, the model stored):',
      '',
      ...kindTable(kindsTrained, memoryTrained.used, up.ratings),
      '',
    );
  }
} finally {
  redis.disconnect();
  await stack.stop();
}
process.stdout.write(out.join('\n') + '\n');
