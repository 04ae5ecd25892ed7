// A search trial's pieces (search.ts): an ALS model fitted on a validation split's training part,
// and a model (or popularity, without one) evaluated on its held-out part: NDCG@10 and recall@10.
import type { Csr } from '../../../native-free-kernels/csr.js';
import { evenRanges } from './ranges.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams, ValidationData } from './tasks.js';
import { fitFactors } from './fit.js';
import type { Quality } from '../../store/models-store.js';

const K = 10;

// A trial's ALS model fitted on a split's training part.
export async function fitTrial(pool: TrainingPool, data: ValidationData, p: AlsParams): Promise<SharedArrayBuffer> {
  const model = await pool.trialModel({ users: data.byUser.rows, items: data.byUser.cols, factors: p.factors, seed: p.seed });
  const [byUser, byItem] = await confidenceOf(pool, data, p.ratingShift, p.ratingFloor);
  await fitFactors(pool, model, byUser, byItem, p);
  return model;
}

export async function fitAndEvaluate(pool: TrainingPool, data: ValidationData, p: AlsParams): Promise<Quality> {
  const model = await fitTrial(pool, data, p);
  const q = await evaluate(pool, data, model);
  return { ndcg_at_10: q.ndcg_at_10, recall_at_10: q.recall_at_10 };
}

// A split's matrices with their values as the confidence a shift gives, made once per shift: trials
// moving other parameters reuse them.
const shiftedOf = new WeakMap<ValidationData, Map<string, Promise<[Csr, Csr]>>>();
function confidenceOf(pool: TrainingPool, data: ValidationData, shift: number, floor: number): Promise<[Csr, Csr]> {
  if (shift === 0 && floor === 0) return Promise.resolve([data.byUser, data.byItem]);
  let byShift = shiftedOf.get(data);
  if (byShift === undefined) shiftedOf.set(data, (byShift = new Map()));
  const key = `${shift} ${floor}`;
  let made = byShift.get(key);
  if (made === undefined)
    byShift.set(
      key,
      (made = Promise.all([
        pool.confidence({ m: data.byUser, shift, floor, inPlace: false }),
        pool.confidence({ m: data.byItem, shift, floor, inPlace: false }),
      ])),
    );
  return made;
}

export async function evaluate(
  pool: TrainingPool,
  data: ValidationData,
  model: SharedArrayBuffer | undefined,
): Promise<Quality & { users: number }> {
  const parts = evenRanges(data.held.users.length, pool.threads);
  const sums = await Promise.all(parts.map(([from, to]) => pool.validate({ model, data, from, to, k: K })));
  const total = sums.reduce((acc, s) => acc.map((x, j) => x + s[j]!), [0, 0, 0]);
  const n = Math.max(1, total[2]!);
  return { ndcg_at_10: total[0]! / n, recall_at_10: total[1]! / n, users: total[2]! };
}
