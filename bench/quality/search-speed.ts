// How long a training with its parameter search takes at 0.5M ratings, and what it does to the
// event loop: the service's trainer (search on, the configured budget) on a synthetic catalogue of
// MovieLens-1M size, in this process, with the event-loop delay histogram recorded throughout.
// Run: npm run build && node dist/bench/quality/search-speed.js
// Env: BENCH_SYNTH_ITEMS (3,700), BENCH_SYNTH_USERS (6,000), BENCH_SYNTH_RATINGS (500,000),
// BENCH_SYNTH_SEED (1); RECD_SEARCH_* and RECD_ALS_* as the service reads them; BENCH_THREADS (pool
// threads, default one per core).
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/env.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { searchOptions, trainingParams } from '../../src/wiring/engine.js';
import { Synthetic, trainingSnapshot } from '../lib/synthetic.js';

const int = (name: string, fallback: number) => Number((process.env[name] ?? String(fallback)).replace(/_/g, ''));
const sizes = {
  items: int('BENCH_SYNTH_ITEMS', 3700),
  users: int('BENCH_SYNTH_USERS', 6000),
  ratings: int('BENCH_SYNTH_RATINGS', 500_000),
  seed: int('BENCH_SYNTH_SEED', 1),
};
const config = loadConfig();
const pool = new TrainingPool(int('BENCH_THREADS', availableParallelism()));
const synth = new Synthetic(sizes);
const snapshot = trainingSnapshot(synth);
const phases: [number, string][] = [];
const t0 = performance.now();
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const trained = await trainAls(
  pool,
  { snapshot, log: [], users: sizes.users, items: sizes.items },
  trainingParams(config), // with the service's lists: a won EASE or item-KNN is fitted on all ratings to make them
  (text) => phases.push([(performance.now() - t0) / 1000, text]),
  { ...searchOptions(config), due: () => true },
);
delay.disable();
const s = trained.searched!.summary;
const fitStart = phases.find(([, text]) => text.startsWith('iteration 1/'))?.[0] ?? NaN;
const listsStart = phases.find(([, text]) => text.startsWith('finishing'))?.[0] ?? NaN;
const ms = (ns: number) => (ns / 1e6).toFixed(2);
console.log(
  [
    `synthetic ${sizes.items.toLocaleString('en-US')} items, ${sizes.users.toLocaleString('en-US')} users, ${snapshot.users.length.toLocaleString('en-US')} ratings; pool of ${pool.threads} threads; search budget ${config.searchSeconds} s, ${config.searchTrials} trials at most, ${config.searchIterations} iterations each`,
    '',
    "| trials | search s | final fit s (from its first iteration) | lists s | whole training s | users' lists from | ALS chosen | event-loop delay p50 / p99 / max ms |",
    '|---:|---:|---:|---:|---:|---|---|---:|',
    `| ${s.trials.length} | ${s.seconds.toFixed(1)} | ${(listsStart - fitStart).toFixed(1)} | ${trained.listed.seconds.toFixed(1)} | ${trained.seconds.toFixed(1)} | ${trained.lists?.model ?? 'als'} | f=${trained.params.factors}, λ=${trained.params.regularization.toPrecision(3)}, alpha=${trained.params.alpha.toPrecision(3)} | ${ms(delay.percentile(50))} / ${ms(delay.percentile(99))} / ${ms(delay.max)} |`,
    '',
    `Trials (ALS factors or model: seconds): ${s.trials.map((x) => `${x.model === 'als' ? x.factors : x.model}: ${x.seconds.toFixed(1)}`).join(', ')}`,
  ].join('\n'),
);
await pool.close();
