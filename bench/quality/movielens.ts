// recd's trainer against the references on MovieLens, same splits, same metric, same run.
// Run: npm run build && RECD_DATASETS=/path/to/datasets node dist/bench/quality/movielens.js
//
// Splits: ml-100k's official folds u1–u5 and one seeded per-user 80/20 split of ml-latest-small.
// Metric (metrics.ts): per test user, every item they did not rate in training is ranked; relevant =
// test ratings ≥ 4; NDCG@10, Recall@10, P@10, means over users, then over folds.
// recd: the production trainer (src/engine/training/trainer.ts) on a TrainingPool, its parameter
// search on (search.ts, the service's default budget), fed each fold's training ratings — what the
// service does with them. It tunes itself on a validation slice of the training data.
// References, tuned on a seeded 80/20 split of the first fold's training data (never on the test
// set), then trained on each fold's training data: popularity (rating count), item-KNN (cosine,
// k neighbours), EASE (λ) and an implicit ALS written in the bench (models.ts referenceAls: exact
// per-row solves, one thread, 15 iterations).
// Then the speed of one fit: recd's ALS on 1 and 2 threads against numpy's (numpy-als.py, one BLAS
// thread; QUALITY_PYTHON names the interpreter, default python3) and the bench's ALS on one thread,
// same data, factors and iterations.
// Env: QUALITY_PARTS (compare,speed: the quality tables, the one-fit timings; default both);
// QUALITY_QUICK=1 (smoke: one fold, tiny grids, 10 s search); QUALITY_THREADS (pool threads,
// default os.availableParallelism()); RECD_SEARCH_SECONDS / RECD_SEARCH_TRIALS (recd's search, as the
// service reads them); EASE_MIN_COUNT_LATEST (default 5: on ml-latest-small EASE models only items
// with that many training ratings, its Gram matrix being items²).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transpose, type Csr } from '../../native-free-kernels/csr.js';
import { loadConfig } from '../../src/config/env.js';
import { searchOptions, trainingParams } from '../../src/wiring/engine.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import type { SearchOptions } from '../../src/engine/training/search.js';
import type { Trial } from '../../src/store/models-store.js';
import { loadMl100kFile, loadMlLatestSmall, perUserSplit, toCsr, type Ratings } from './data.js';
import { evaluate, type Metrics } from './metrics.js';
import {
  alsScorer,
  servedScorer,
  cooccurrence,
  easeScorer,
  easeWeights,
  itemKnnScorer,
  keptItems,
  popularityScorer,
  referenceAls,
  trainAls,
  type Scorer,
} from './models.js';

const quick = process.env.QUALITY_QUICK === '1';
const threads = Number(process.env.QUALITY_THREADS ?? availableParallelism());
const easeMinLatest = Number(process.env.EASE_MIN_COUNT_LATEST ?? '5');
const config = loadConfig();
const search: SearchOptions = { ...searchOptions(config), ...(quick && { seconds: 10 }) };
// The bench's models have no lists; trainAls (models.ts) sets those parameters.
const recdBase = trainingParams(config);
const ITERATIONS = 15;
// recd is measured as user-to-items serves: each user's precomputed list (this long), then factors.
const SERVED_LIST = 16;
const weighing = (c: { weight_cut: number; weight_below: number; weight_by_quantile: boolean; als_weight?: number }) =>
  (c.weight_by_quantile
    ? ', ratings weighing their quantile'
    : c.weight_below < 1
      ? `, ratings under ${c.weight_cut} weigh ${c.weight_below}`
      : '') + (c.als_weight ? `, blended with ALS at ${c.als_weight}` : '');
const describe = (c: Trial): string =>
  c.model === 'popularity'
    ? 'popularity'
    : c.model === 'item-knn'
      ? `item-KNN over ${c.items} items, k=${c.neighbours}${weighing(c)}`
      : c.model === 'ease'
        ? `EASE over ${c.items} items, λ=${c.lambda.toPrecision(3)} (${c.lambda_scale.toPrecision(3)}× the mean diagonal)${weighing(c)}`
        : `ALS f=${c.factors}, λ=${c.regularization.toPrecision(3)}, alpha=${c.alpha.toPrecision(3)}${c.reg_exponent ? `, ν=${c.reg_exponent}, α0=${c.unobserved.toPrecision(2)}` : ''}${c.rating_shift ? `, shift ${c.rating_shift}` : ''}`;
const pool = new TrainingPool(threads);
const t0 = performance.now();
const log = (s: string): void => console.error(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${s}`);
const fmt = (x: number): string => x.toFixed(4);

interface Fold {
  train: Csr;
  trainT: Csr;
  test: Csr;
}
const fold = (train: Ratings, test: Ratings): Fold => {
  const m = toCsr(train);
  return { train: m, trainT: transpose(m), test: toCsr(test) };
};
const timed = <T>(f: () => T): [T, number] => {
  const s = performance.now();
  const v = f();
  return [v, (performance.now() - s) / 1000];
};

interface Reference {
  name: string;
  // Trains on a fold and returns its scorer; the label says the parameters.
  grid: { label: string; train: (fd: Fold) => Scorer | Promise<Scorer> }[];
}

function easeFor(minCount: number, lambda: number) {
  return (fd: Fold): Scorer => {
    const { keep, kept } = keptItems(fd.train, minCount);
    return easeScorer(fd.train, easeWeights(cooccurrence(fd.train, keep, kept.length), kept.length, lambda), keep, kept);
  };
}

function references(easeMinCount: number): Reference[] {
  return [
    {
      name: 'item-KNN',
      grid: (quick ? [50] : [20, 50, 100, 200]).map((k) => ({
        label: `k=${k}`,
        train: (fd: Fold) => itemKnnScorer(fd.train, fd.trainT, k),
      })),
    },
    {
      name: 'EASE',
      grid: (quick ? [300] : [50, 100, 200, 500, 1000, 2000]).map((l) => ({
        label: `λ=${l}${easeMinCount > 0 ? `, items with ≥ ${easeMinCount} ratings` : ''}`,
        train: easeFor(easeMinCount, l),
      })),
    },
    {
      name: 'ALS (bench)',
      grid: (quick ? [[32, 20, 0.25]] : [32, 64].flatMap((f) => [5, 20, 50].flatMap((r) => [0.25, 1, 4].map((a) => [f, r, a])))).map(
        ([f, r, a]) => ({
          label: `f=${f}, λ=${r}, alpha=${a}`,
          train: (fd: Fold) => alsScorer(referenceAls(fd.train, fd.trainT, f!, r!, a!, ITERATIONS, 42), fd.train.cols),
        }),
      ),
    },
  ];
}

function mean(ms: Metrics[]): Metrics {
  const n = ms.length;
  const avg = (k: keyof Metrics) => ms.reduce((s, m) => s + m[k], 0) / n;
  return { precision: avg('precision'), recall: avg('recall'), ndcg: avg('ndcg'), users: avg('users') };
}

interface Row {
  model: string;
  params: string;
  m: Metrics;
  seconds: number; // training, mean per fold
}

async function compare(title: string, folds: Fold[], tuneFrom: Ratings, easeMinCount: number): Promise<string[]> {
  // Reference tuning on a split of the first fold's training data.
  const tuneSplit = perUserSplit(tuneFrom, 0.2, 7);
  const tune = fold(tuneSplit.train, tuneSplit.test);
  const rows: Row[] = [];
  const tuning: string[] = [];
  {
    const per = folds.map((fd) => timed(() => evaluate(fd.train, fd.test, popularityScorer(fd.train))));
    rows.push({ model: 'popularity', params: 'rating count', m: mean(per.map((x) => x[0])), seconds: 0 });
  }
  for (const ref of references(easeMinCount)) {
    let best = ref.grid[0]!,
      bestNdcg = -1;
    for (const point of ref.grid) {
      const m = evaluate(tune.train, tune.test, await point.train(tune));
      tuning.push(`| ${ref.name} | ${point.label} | ${fmt(m.ndcg)} |`);
      log(`${title} tune ${ref.name} ${point.label}: ${fmt(m.ndcg)}`);
      if (m.ndcg > bestNdcg) [best, bestNdcg] = [point, m.ndcg];
    }
    const per: Metrics[] = [];
    let seconds = 0;
    for (const fd of folds) {
      const s = performance.now();
      const scorer = await best.train(fd);
      seconds += (performance.now() - s) / 1000;
      per.push(evaluate(fd.train, fd.test, scorer));
    }
    rows.push({ model: ref.name, params: best.label, m: mean(per), seconds: seconds / folds.length });
    log(`${title} ${ref.name} ${best.label}: ${fmt(mean(per).ndcg)}`);
  }
  {
    const per: Metrics[] = [];
    const chosen: string[] = [];
    let seconds = 0;
    for (const fd of folds) {
      const model = await trainAls(pool, fd.train, recdBase, search, undefined, SERVED_LIST);
      seconds += model.seconds;
      const s = model.searched!.summary;
      chosen.push(
        `${describe(s.trials[s.chosen]!)}${s.chosen !== s.chosen_als ? ` (factors: ${describe(s.trials[s.chosen_als]!)})` : ''} (${s.trials.length} trials)`,
      );
      per.push(evaluate(fd.train, fd.test, servedScorer(model, fd.train.cols)));
      log(`${title} recd fold: ${fmt(per[per.length - 1]!.ndcg)} with ${chosen[chosen.length - 1]}`);
    }
    const counted = [...new Set(chosen)].map(
      (c) => `${c}${folds.length > 1 ? ` in ${chosen.filter((x) => x === c).length} of ${folds.length} folds` : ''}`,
    );
    rows.push({
      model: 'recd (search: ALS, EASE, item-KNN, popularity, blends)',
      params: counted.join('; '),
      m: mean(per),
      seconds: seconds / folds.length,
    });
  }
  const bestRef = Math.max(...rows.filter((r) => r.model === 'EASE' || r.model === 'ALS (bench)').map((r) => r.m.ndcg));
  const recd = rows[rows.length - 1]!;
  return [
    `### ${title}`,
    '',
    '| model | parameters | NDCG@10 | Recall@10 | P@10 | ÷ best of EASE and ALS | training s (per fold) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.model} | ${r.params} | ${fmt(r.m.ndcg)} | ${fmt(r.m.recall)} | ${fmt(r.m.precision)} | ${(r.m.ndcg / bestRef).toFixed(3)} | ${r.seconds.toFixed(1)} |`,
    ),
    '',
    `recd ÷ best of EASE and tuned ALS (NDCG@10): **${(recd.m.ndcg / bestRef).toFixed(3)}**; users evaluated per fold: ${recd.m.users.toFixed(0)}.`,
    '',
    '<details><summary>reference tuning (NDCG@10 on the tuning split)</summary>',
    '',
    '| model | parameters | NDCG@10 |',
    '|---|---|---:|',
    ...tuning,
    '',
    '</details>',
    '',
  ];
}

// One fit's time: recd's ALS (CG, 3 steps) on 1 and on `threads` threads, numpy's (numpy-als.py:
// a solve per row, one BLAS thread) and the bench's ALS (exact solves, one thread); same data,
// factors and iterations, no search, no lists, each timed from its first iteration to its last.
async function speed(name: string, train: Csr, factors: number): Promise<string> {
  const trainT = transpose(train);
  const [, ref] = timed(() => referenceAls(train, trainT, factors, 20, 0.25, ITERATIONS, 42));
  const numpy = numpyAls(train, factors);
  // From the first iteration to the loss (the fit alone, as numpy's time is; the ratings' preparation
  // before it is not counted).
  const fit = async (p: TrainingPool) => {
    let first = NaN,
      last = NaN;
    await trainAls(p, train, { ...recdBase, factors, iterations: ITERATIONS }, undefined, (text) => {
      if (text.startsWith('iteration 1/')) first = performance.now();
      if (text.startsWith('finishing')) last = performance.now();
    });
    return (last - first) / 1000;
  };
  const one = new TrainingPool(1);
  const single = await fit(one);
  await one.close();
  const multi = await fit(pool);
  return `| ${name} | ${train.indices.length.toLocaleString('en-US')} | ${factors} | ${numpy.toFixed(2)} | ${ref.toFixed(2)} | ${single.toFixed(2)} | ${multi.toFixed(2)} | ${(numpy / single).toFixed(2)} |`;
}

function numpyAls(train: Csr, factors: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'recd-quality-'));
  try {
    const lines: string[] = [];
    for (let u = 0; u < train.rows; u++)
      for (let e = train.indptr[u]!; e < train.indptr[u + 1]!; e++) lines.push(`${u},${train.indices[e]},${train.values[e]}`);
    writeFileSync(join(dir, 'ratings.csv'), `${lines.join('\n')}\n`);
    const script = fileURLToPath(new URL('../../../bench/quality/numpy-als.py', import.meta.url));
    const out = execFileSync(
      process.env.QUALITY_PYTHON ?? 'python3',
      [script, join(dir, 'ratings.csv'), String(factors), String(ITERATIONS), '20', '0.25'],
      {
        env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' },
        encoding: 'utf8',
      },
    );
    return (JSON.parse(out) as { seconds: number }).seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const out: string[] = [];
const parts = (process.env.QUALITY_PARTS ?? 'compare,speed').split(',');
const ml100k = Array.from({ length: quick ? 1 : 5 }, (_, k) => ({
  train: loadMl100kFile(`u${k + 1}.base`),
  test: loadMl100kFile(`u${k + 1}.test`),
}));
const latest = perUserSplit(loadMlLatestSmall(), 0.2, 2026);
if (parts.includes('compare')) {
  out.push(
    ...(await compare(
      `ml-100k, official folds u1–u${ml100k.length}`,
      ml100k.map((x) => fold(x.train, x.test)),
      ml100k[0]!.train,
      0,
    )),
  );
  out.push(
    ...(await compare('ml-latest-small, per-user 80/20 split (seed 2026)', [fold(latest.train, latest.test)], latest.train, easeMinLatest)),
  );
}
if (parts.includes('speed'))
  out.push(
    '### One fit: recd ALS vs numpy ALS and the bench ALS (λ 20, alpha 0.25, 15 iterations)',
    '',
    `| data | ratings | factors | numpy 1 thread s | bench ALS 1 thread s | recd 1 thread s | recd ${threads} threads s | numpy ÷ recd (1 thread) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
if (parts.includes('speed')) {
  for (const f of quick ? [32] : [32, 64]) {
    out.push(await speed('ml-100k u1.base', toCsr(ml100k[0]!.train), f));
    out.push(await speed('ml-latest-small train', toCsr(latest.train), f));
  }
}
out.push(
  '',
  `Search: ${search.seconds} s budget, ${search.maxTrials} trials at most, ${search.iterations} iterations each; training pool of ${threads} threads. Total ${((performance.now() - t0) / 1000).toFixed(0)} s, Node ${process.version}.`,
);
console.log(out.join('\n'));
await pool.close();
