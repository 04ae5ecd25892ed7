// What the served model's approximations cost in quality, read from Redis after a bench's set-up:
// the item index's rankings and the precomputed item lists (which requests serve) against the exact
// cosine ranking over every item, as recall@k (the share of the exact top k found in the top k).
import { modelViews } from '../../src/engine/model/layout.js';
import { scorable, similarItems, type Scorable } from '../../src/engine/scoring/rankings.js';
import { connectRedis } from '../../src/store/redis.js';
import { ModelsStore } from '../../src/store/models-store.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { fmt, median } from './report.js';

const DEPTHS = [10, 64];
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
export const recallAt = (got: ArrayLike<number>, exact: ArrayLike<number>, k: number): number => {
  const want = new Set(Array.from(exact).slice(0, k));
  return want.size === 0
    ? 1
    : Array.from(got)
        .slice(0, k)
        .filter((i) => want.has(i)).length / want.size;
};

// Report lines for `sampled` random items with factors of the database's served model.
export async function modelRecallLines(redisUrl: string, db: string, sampled: number): Promise<string[]> {
  const conn = connectRedis(redisUrl, { commandTimeoutMs: 60_000, name: 'bench-model-recall' });
  try {
    const store = new ModelsStore(conn);
    const id = await store.current(db);
    const meta = id === undefined ? undefined : await store.meta(db, id);
    const buffer = meta && (await store.buffer(db, meta));
    if (!buffer) return ['(no served model found in Redis: recall not measured)'];
    const views = modelViews(buffer);
    const { items, factors, lists, itemList } = views.dims;
    const indexed: Scorable = scorable(views);
    const exact: Scorable = { ...indexed, views: { ...views, dims: { ...views.dims, lists: 0 } } };
    const norms = indexed.rows.norms;
    const rand = mulberry32(7);
    const rows: number[] = [];
    while (rows.length < sampled) {
      const r = Math.floor(rand() * items);
      if (norms[r]! > 0) rows.push(r);
    }
    const depth = Math.max(...DEPTHS);
    const index = DEPTHS.map(() => [] as number[]),
      listed = DEPTHS.map(() => [] as number[]);
    const msIndex: number[] = [],
      msExact: number[] = [];
    for (const r of rows) {
      let t0 = performance.now();
      const a = similarItems(indexed, r, depth).items;
      msIndex.push(performance.now() - t0);
      t0 = performance.now();
      const b = similarItems(exact, r, depth).items;
      msExact.push(performance.now() - t0);
      const list = views.itemLists.subarray(r * itemList, (r + 1) * itemList);
      DEPTHS.forEach((k, d) => {
        index[d]!.push(recallAt(a, b, k));
        listed[d]!.push(recallAt(list, b, k));
      });
    }
    const summary = (xs: number[]) => `mean ${fmt(mean(xs), 3)}, median ${fmt(median(xs), 2)}, worst ${fmt(Math.min(...xs), 2)}`;
    return [
      '### Recall of the served model against the exact ranking',
      '',
      `- Model: ${items.toLocaleString('en-US')} items × ${factors} factors, ${lists > 0 ? `an item index of ${lists} lists (${fmt(items / lists, 0)} items a list on average)` : 'no item index'}, item lists of ${itemList}; ${sampled} random items with factors, exact = cosine similarity over every item.`,
      ...DEPTHS.flatMap((k, d) => [
        ...(lists > 0 ? [`- Recall@${k} of the index's ranking: ${summary(index[d]!)}.`] : []),
        ...(itemList >= k ? [`- Recall@${k} of the precomputed item lists (what item-to-items serves): ${summary(listed[d]!)}.`] : []),
      ]),
      `- One ranking of depth ${depth} in this process (no HTTP): ${lists > 0 ? `index median ${fmt(median(msIndex), 2)} ms, ` : ''}full scan median ${fmt(median(msExact), 2)} ms.`,
    ];
  } finally {
    conn.disconnect();
  }
}
