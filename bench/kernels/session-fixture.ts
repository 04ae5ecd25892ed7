// The set-up the session benches share: ml-latest-small trained by the production trainer (ratings
// 1–10, F factors, lists of 128, no index), and sessions of 5 items with ratings 1–10, drawn either
// uniformly from all items (what bench/http sends) or from one real user's ratings.
import { availableParallelism } from 'node:os';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { modelViews, type ModelViews } from '../../src/engine/model/layout.js';
import { scorable } from '../../src/engine/scoring/rankings.js';
import { loadMlLatestSmall } from '../quality/data.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import type { ModelMeta } from '../../src/store/models-store.js';

export interface Session {
  items: Uint32Array;
  values: Float32Array;
}

export async function sessionFixture(factors: number) {
  const d = loadMlLatestSmall();
  const n = d.u.length;
  const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => d.u[a]! - d.u[b]! || d.i[a]! - d.i[b]!);
  const snapshot = {
    users: Uint32Array.from(order, (k) => d.u[k]!),
    items: Uint32Array.from(order, (k) => d.i[k]!),
    ratings: Float32Array.from(order, (k) => 2 * d.r[k]!),
    timestamps: new Float64Array(n),
  };
  const pool = new TrainingPool(availableParallelism());
  const params = {
    factors,
    iterations: 15,
    regularization: 20,
    alpha: 0.25,
    unobserved: 1,
    regExponent: 0,
    ratingShift: 0,
    ratingFloor: 0,
    cgSteps: 3,
    listLength: 128,
    userListsSeconds: 0,
    indexMinItems: 2 ** 31,
    popularityHalfLifeSeconds: 1e9,
    seed: 42,
  };
  const { model } = await trainAls(pool, { snapshot, log: [], users: d.users, items: d.items }, params, () => {});
  await pool.close();
  const views: ModelViews = modelViews(model);
  const m = { ...scorable(views), meta: { params: { regularization: 20, alpha: 0.25 } } as unknown as ModelMeta };
  const items = views.dims.items;
  const rand = mulberry32(7);
  const byUser: number[][] = Array.from({ length: d.users }, () => []);
  for (let k = 0; k < n; k++) byUser[snapshot.users[k]!]!.push(k);
  const sessions = (kind: 'uniform' | 'user', count: number): Session[] => {
    const out: Session[] = [];
    for (let s = 0; s < count; s++) {
      const picked = new Set<number>();
      const rows = byUser[Math.floor(rand() * d.users)]!;
      while (picked.size < 5)
        picked.add(kind === 'uniform' ? Math.floor(rand() * items) : snapshot.items[rows[Math.floor(rand() * rows.length)]!]!);
      out.push({ items: Uint32Array.from(picked), values: Float32Array.from({ length: 5 }, () => 1 + Math.floor(rand() * 10)) });
    }
    return out;
  };
  return { views, m, items, rand, sessions };
}
