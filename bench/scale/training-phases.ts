// Where a large training's time goes (issue 42): the service's trainer in this process on the
// synthetic catalogue (bench/lib/synthetic.ts; 100,000 items, 1,000,000 users, 20,000,000 ratings
// unless BENCH_SYNTH_* say otherwise), seconds per phase from its progress reports, and the peak RSS.
// No HTTP and no Redis: the ratings go in as the snapshot a retrain reads.
//
//   npm run build && node dist/bench/scale/training-phases.js
//
// RECD_* settings as the service reads them (RECD_SEARCH_SECONDS: 0 unless set, as bench/scale's
// trainings; RECD_USER_LISTS_SECONDS, RECD_ALS_*); BENCH_THREADS: pool threads (one per core).
import { availableParallelism } from 'node:os';
import os from 'node:os';
import { loadConfig } from '../../src/config/env.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { phaseOf } from '../../src/engine/training/run-record.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { searchOptions, trainingParams } from '../../src/wiring/engine.js';
import { gitState } from '../lib/report.js';
import { Synthetic, synthSizes, trainingSnapshot } from '../lib/synthetic.js';

process.env.RECD_SEARCH_SECONDS ??= '0';
// Phases as the service's log names them (run-record.ts phaseOf): each round of the item lists' own.
const sizes = synthSizes();
const config = loadConfig();
const t0 = performance.now();
const snapshot = trainingSnapshot(new Synthetic(sizes));
const made = (performance.now() - t0) / 1000;
const pool = new TrainingPool(Number(process.env.BENCH_THREADS ?? availableParallelism()));
let peak = process.memoryUsage().rss;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
const starts: [string, number][] = [];
const started = performance.now();
const trained = await trainAls(
  pool,
  { snapshot, log: [], users: sizes.users, items: sizes.items },
  trainingParams(config),
  (text) => {
    const phase = phaseOf(text);
    if (phase !== starts.at(-1)?.[0]) starts.push([phase, (performance.now() - started) / 1000]);
  },
  config.searchSeconds > 0 ? { ...searchOptions(config), due: () => true } : undefined,
);
const total = (performance.now() - started) / 1000;
clearInterval(sampler);
const mib = (b: number) => `${Math.round(b / 2 ** 20).toLocaleString('en-US')} MiB`;
console.log(
  `synthetic ${sizes.items.toLocaleString('en-US')} items × ${sizes.users.toLocaleString('en-US')} users × ${snapshot.users.length.toLocaleString('en-US')} ratings (made in ${made.toFixed(1)} s); ${pool.threads} training threads; factors ${trained.params.factors}, ${trained.params.iterations} iterations, lists of ${config.listLength}, RECD_USER_LISTS_SECONDS ${config.userListsSeconds}, RECD_SEARCH_SECONDS ${config.searchSeconds}\n`,
);
console.log('| phase | s | share |');
console.log('|---|---:|---:|');
starts.forEach(([phase, at], k) => {
  const s = (starts[k + 1]?.[1] ?? total) - at;
  console.log(`| ${phase} | ${s.toFixed(1)} | ${((100 * s) / total).toFixed(0)} % |`);
});
console.log(`| **whole training** | **${total.toFixed(1)}** | |`);
console.log(
  `\nusers listed: ${trained.listed.users.toLocaleString('en-US')} of ${trained.users.toLocaleString('en-US')}; peak RSS ${mib(peak)} (the snapshot and the bench's own data included); model ${mib(trained.model.byteLength)}`,
);
console.log(`${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, ${gitState()}, ${new Date().toISOString()}`);
await pool.close();
