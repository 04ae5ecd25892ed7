// The parameter search (engine/training/search.ts) sized to the data: its time budget grows with the
// ratings its trials train on, its trials end when validation stops improving, and a warm search
// starts EASE from the last choice and explores no random points.
import t from 'tap';
import { csrFromTriples, sharedCsr } from '../../native-free-kernels/csr.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { loadConfig } from '../../src/config/env.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { searchBudget, searchParams, type SearchOptions } from '../../src/engine/training/search.js';
import { MIN_GAIN } from '../../src/engine/training/search-space.js';
import { trainingParams } from '../../src/wiring/engine.js';
import type { AlsTrial, EaseTrial } from '../../src/store/models-store.js';

// 400 users in 4 groups of 30 items; each rates 12 of its group's items and 2 others, graded.
function planted() {
  const next = mulberry32(11);
  const users: number[] = [],
    items: number[] = [],
    values: number[] = [];
  for (let u = 0; u < 400; u++) {
    const group = u % 4;
    const seen = new Set<number>();
    while (seen.size < 12) seen.add(group * 30 + Math.floor(next() * 30));
    while (seen.size < 14) seen.add(Math.floor(next() * 120));
    for (const i of [...seen].sort((a, b) => a - b)) {
      users.push(u);
      items.push(i);
      values.push(1 + Math.floor(next() * 10));
    }
  }
  return sharedCsr(csrFromTriples(400, 120, Uint32Array.from(users), Uint32Array.from(items), Float32Array.from(values)));
}

const base = { ...trainingParams(loadConfig({})), factors: 16, iterations: 3 };
const options: SearchOptions = {
  seconds: 600,
  maxTrials: 500,
  iterations: 3,
  maxRatings: 2_000_000,
  easeMaxItems: 4000,
  candidates: ['als', 'ease', 'item-knn', 'popularity', 'blend'],
};

t.test('the budget grows with the ratings up to the configured most', async (t) => {
  t.equal(searchBudget(100_000, 45), 13.5);
  t.equal(searchBudget(500_000, 45), 19.5);
  t.equal(searchBudget(10_000_000, 45), 45, 'never past the most');
  t.equal(searchBudget(100_000, 5), 5);
  t.ok(searchBudget(200_000, 45) > searchBudget(100_000, 45), 'more data, more time');
});

t.test('a search ends when validation stops improving, well before its trials and budget run out', async (t) => {
  const pool = new TrainingPool(2);
  t.teardown(() => pool.close());
  const byUser = planted();
  const { summary: s } = await searchParams(pool, byUser, base, options, () => {});
  t.equal(s.ended, 'no gain');
  t.equal(s.budget_seconds, searchBudget(s.sampled_ratings, 600), 'the budget of the sampled ratings');
  t.ok(s.trials.length < 100, `${s.trials.length} trials of the ${options.maxTrials} allowed`);
  t.ok(s.seconds < s.budget_seconds!, `${s.seconds.toFixed(1)} s of ${s.budget_seconds} s`);
  // Its last 8 ALS trials gained nothing over the best ALS trial before each.
  const als = s.trials.filter((x): x is AlsTrial => x.model === 'als');
  const tail = als.length - 8;
  t.ok(tail >= 1, `${als.length} ALS trials`);
  for (let k = tail; k < als.length; k++) {
    const best = Math.max(...als.slice(0, k).map((x) => x.ndcg_at_10));
    t.ok(als[k]!.ndcg_at_10 <= best * (1 + MIN_GAIN), `ALS trial ${k}: ${als[k]!.ndcg_at_10} against ${best}`);
  }
  // EASE's own trials end after 4 in a row without a gain.
  const ease = s.trials.filter((x): x is EaseTrial => x.model === 'ease' && x.als_weight === undefined);
  t.ok(ease.length >= 1, `${ease.length} EASE trials`);
});

t.test('a warm search starts EASE from the last choice and tries no random point', async (t) => {
  const pool = new TrainingPool(2);
  t.teardown(() => pool.close());
  const byUser = planted();
  const last = { model: 'ease' as const, lambdaScale: 3.3, cut: 0, below: 1, byQuantile: false, items: 120, alsWeight: 0 };
  const { summary: s } = await searchParams(pool, byUser, base, { ...options, warm: { lists: last } }, () => {});
  const ease = s.trials.find((x): x is EaseTrial => x.model === 'ease')!;
  t.equal(ease.lambda_scale, 3.3, 'EASE starts at the last λ');
  t.equal(ease.weight_by_quantile, false, 'and the last weighting');
  // Without random points every ALS trial after trial 0 differs from the best before it in one
  // coordinate (factors, λ, alpha, shift, frequency scaling or α0).
  const als = s.trials.filter((x): x is AlsTrial => x.model === 'als');
  const coords = (x: AlsTrial) => [x.factors, x.alpha / x.unobserved, x.rating_shift, x.reg_exponent];
  for (let k = 1; k < als.length; k++) {
    const moved = als.slice(0, k).some((y) => coords(y).filter((v, j) => v !== coords(als[k]!)[j]).length <= 1);
    t.ok(moved, `ALS trial ${k} is one move from an earlier trial`);
  }
});
