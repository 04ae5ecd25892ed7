// `recd plan`: its arguments and its table (the cost model is plan-model.ts).
import type { Plan, PlanInput } from './plan-model.js';

export type Sizes = Pick<PlanInput, 'users' | 'items' | 'ratings' | 'factors'>;

// The sizes from the options' text, or what is wrong with them.
export function sizesOf(values: Record<string, string | undefined>, defaultFactors: number): Sizes | { error: string } {
  const out: Partial<Sizes> = {};
  for (const name of ['users', 'items', 'ratings', 'factors'] as const) {
    const raw = values[name];
    if (raw === undefined) {
      if (name !== 'factors') return { error: `--${name} is required` };
      out.factors = defaultFactors;
      continue;
    }
    const n = Number(raw.replace(/_/g, ''));
    if (!/^[0-9_]+$/.test(raw) || !Number.isSafeInteger(n) || n < 1)
      return { error: `--${name} must be a positive integer, got ${JSON.stringify(raw)}` };
    out[name] = n;
  }
  const s = out as Sizes;
  // A rating is a (user, item) pair.
  if (s.ratings > s.users * s.items) return { error: `--ratings ${s.ratings} is more than users × items (${s.users * s.items})` };
  // Layout arithmetic stays within int32 dimensions (src/engine/model/layout.ts checks the same).
  if (s.users > 0x7fffffff || s.items > 0x7fffffff || s.factors > 1024)
    return { error: 'at most 2,147,483,647 users and items and 1,024 factors' };
  return s;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const mib = (bytes: number) => (bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : `${n(bytes / 2 ** 20)} MiB`);
const minutes = (s: number) => (s >= 90 ? `${(s / 60).toFixed(1)} min` : `${n(s)} s`);

export function planText(p: PlanInput, plan: Plan): string {
  const { redis, recd, seconds, model } = plan;
  const rows: [string, string, string][] = [
    [
      'Redis memory',
      `${mib(redis.trained)} trained`,
      `${mib(redis.beforeTraining)} before the first training; ratings ${mib(redis.ratingsStore)}, users ${mib(redis.users)}, items ${mib(redis.items)}, ratings log ${mib(redis.log)} → snapshot ${mib(redis.snapshot)}, models ${mib(redis.models)}`,
    ],
    [
      'recd per serving process',
      mib(recd.total),
      `model ${mib(recd.model)}, user index ${mib(recd.userIndex)}, item index and rows ${mib(recd.itemIndex + recd.itemRows)}, users' lists cached ${mib(recd.listCache)}, base ${mib(recd.base)}`,
    ],
    ['recd training, peak', mib(plan.training.peak), `the model it makes, the ratings it trains on (both ways) and the item lists' passes`],
    ['model', mib(model.bytes), `${n(model.bytes)} bytes; ${n(model.listedUsers)} of ${n(p.users)} users listed`],
    [
      'training time',
      minutes(seconds.total),
      `reading and preparing the ratings ${n(seconds.prepare)} s, ALS ${n(seconds.als)} s, item lists ${n(seconds.itemLists)} s, users' lists ${n(seconds.userLists)} s, publishing ${n(seconds.publish)} s, search up to ${n(seconds.search)} s`,
    ],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return [
    `recd plan: ${n(p.users)} users × ${n(p.items)} items × ${n(p.ratings)} ratings, ${p.factors} factors`,
    `settings: lists of ${p.listLength}, RECD_USER_LISTS_SECONDS ${p.userListsSeconds}, RECD_SEARCH_SECONDS ${p.searchSeconds}, RECD_USER_LIST_CACHE ${n(p.userListCache)}`,
    '',
    ...rows.map(([a, b, c]) => `${a.padEnd(w0)}  ${b.padStart(w1)}  ${c}`),
    '',
    'Estimates for one database on one Redis, on the machine the coefficients were measured on: a 2-core',
    'AMD EPYC VM (seconds scale with cores and load; bytes do not). Ratings assumed spread over users as',
    'bench/lib/synthetic.ts spreads them. Sources: src/cli/plan-model.ts, bench/RESULTS.md, docs/scale.md.',
  ].join('\n');
}
