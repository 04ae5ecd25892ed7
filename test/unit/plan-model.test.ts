// The capacity planner's cost model (src/cli/plan-model.ts): the model size against the layout,
// monotonic in every input, and within ±30 % of the recorded runs its coefficients come from.
import t from 'tap';
import { allocateModel, listsFor } from '../../src/engine/model/layout.js';
import { plan, ratingsOfUsersOver, type PlanInput } from '../../src/cli/plan-model.js';

const DEFAULTS = {
  factors: 32,
  listLength: 128,
  userListsSeconds: 600,
  searchSeconds: 0,
  searchMaxRatings: 2_000_000,
  userListCache: 250_000,
  itemIndexMinItems: 100_000,
};
const at = (users: number, items: number, ratings: number, more: Partial<PlanInput> = {}) =>
  plan({ ...DEFAULTS, users, items, ratings, ...more });
const MIB = 2 ** 20;
const within30 = (t: { ok: (ok: boolean, message: string) => unknown }, got: number, recorded: number, what: string) =>
  t.ok(
    Math.abs(got / recorded - 1) <= 0.3,
    `${what}: ${got.toFixed(1)} against ${recorded} recorded (${((got / recorded - 1) * 100).toFixed(0)} %)`,
  );

t.test('the model size is what allocateModel allocates', async (t) => {
  for (const [users, items, factors, listLength, minItems] of [
    [1, 1, 1, 0, 100],
    [7, 5, 3, 2, 100],
    [300, 40, 8, 16, 10],
    [1000, 2500, 5, 128, 2000],
  ] as const) {
    const p = at(users, items, users, { factors, listLength, itemIndexMinItems: minItems });
    const { buffer } = allocateModel({
      factors,
      users,
      items,
      itemList: listLength,
      userList: listLength,
      trainedItems: items,
      lists: listsFor(items, minItems),
      listedUsers: p.model.listedUsers,
    });
    t.equal(p.model.bytes, buffer.byteLength, `${users} users × ${items} items × ${factors} factors, lists of ${listLength}`);
  }
});

t.test('every estimate grows with every size', async (t) => {
  const base = { users: 100_000, items: 20_000, ratings: 2_000_000, factors: 32 };
  const figures = (p: ReturnType<typeof plan>) => [p.model.bytes, p.redis.beforeTraining, p.redis.trained, p.recd.total, p.seconds.total];
  for (const key of ['users', 'items', 'ratings', 'factors'] as const) {
    const before = figures(at(base.users, base.items, base.ratings, { factors: base.factors }));
    const s = { ...base, [key]: base[key] * 2 };
    const after = figures(at(s.users, s.items, s.ratings, { factors: s.factors }));
    after.forEach((x, k) => t.ok(x >= before[k]!, `${key} doubled: figure ${k} ${before[k]} → ${x}`));
  }
});

t.test('ratings held past the listpack limit follow the synthetic catalogue', async (t) => {
  // bench/lib/synthetic.ts's own counts at these sizes (its countOf summed over users of over 128).
  within30(t, ratingsOfUsersOver(128, 1_000_000, 100_000, 20_000_000) / 20_000_000, 0.495, '20M ratings, share');
  within30(t, ratingsOfUsersOver(128, 250_000, 100_000, 5_000_000) / 5_000_000, 0.495, '5M ratings, share');
  t.equal(ratingsOfUsersOver(128, 1000, 100, 1000), 0, 'one rating a user: none');
});

// The runs the coefficients come from (the bench named beside each) and the figures they recorded.
t.test('model size against the recorded models', async (t) => {
  // bench/scale/scale.ts on one Redis: 20k items, 50k users, 1M ratings, every user listed: 43 MiB.
  within30(t, at(50_000, 20_000, 1_000_000).model.bytes / MIB, 43, '1M ratings model MiB');
  // bench/http/reco-synthetic.ts at 1M users, the shipped defaults: every user listed, 676 MiB.
  const p = at(1_000_000, 100_000, 20_000_000);
  t.equal(p.model.listedUsers, 1_000_000);
  within30(t, p.model.bytes / MIB, 676, '20M ratings model MiB');
  // bench/http/reco-synthetic.ts at 100k users: 124 MiB.
  within30(t, at(100_000, 100_000, 2_000_000).model.bytes / MIB, 124, '2M ratings model MiB');
});

// bench/scale/scale.ts's first trainings (bench/RESULTS.md, "Training at scale: in the service, by
// phase, and the capacity plan"; search off): the task's seconds, the training process's peak RSS, and Redis's
// used_memory after the upload and once trained.
const SCALE_RUNS = [
  { name: '1M ratings', users: 50_000, items: 20_000, ratings: 1_000_000, seconds: [18.5], peak: [415], before: 141, trained: 189 },
  { name: '5M ratings', users: 250_000, items: 100_000, ratings: 5_000_000, seconds: [103.3], peak: [1462], before: 778, trained: 1280 },
  {
    name: '20M ratings',
    users: 1_000_000,
    items: 100_000,
    ratings: 20_000_000,
    seconds: [251.3, 304.3],
    peak: [3341, 3492],
    before: 3037,
    trained: 3747,
  },
];

t.test('training time and peak memory against the scale runs', async (t) => {
  for (const r of SCALE_RUNS) {
    const p = at(r.users, r.items, r.ratings);
    for (const s of r.seconds) within30(t, p.seconds.total, s, `${r.name}, training s`);
    for (const m of r.peak) within30(t, p.training.peak / MIB, m, `${r.name}, training peak RSS MiB`);
  }
  // The search's budget comes on top.
  t.equal(
    at(1000, 100, 5000, { searchSeconds: 45 }).seconds.search,
    12.075,
    'the search budget of the data is added: 12 s and 15 s a million ratings',
  );
  t.equal(at(1_000_000, 100_000, 20_000_000, { searchSeconds: 45 }).seconds.search, 42, 'trials sample 2M ratings at most');
  t.equal(at(1_000_000, 100_000, 20_000_000, { searchSeconds: 30 }).seconds.search, 30, 'up to RECD_SEARCH_SECONDS');
  const p = at(1_000_000, 100_000, 20_000_000, { searchSeconds: 45 }).seconds;
  t.equal(p.total, p.prepare + p.als + p.itemLists + p.userLists + p.publish + p.search, 'the total is its phases');
});

t.test('Redis memory against the scale runs', async (t) => {
  // Coefficients from older runs (below), checked here against the current store.
  for (const r of SCALE_RUNS) {
    const p = at(r.users, r.items, r.ratings).redis;
    within30(t, p.beforeTraining / MIB, r.before, `${r.name}, Redis before training MiB`);
    within30(t, p.trained / MIB, r.trained, `${r.name}, Redis trained MiB`);
  }
});

t.test('recd per serving process against recorded RSS', async (t) => {
  // The same two runs, RSS after the load runs.
  within30(t, at(1_000_000, 100_000, 20_000_000).recd.total / MIB, 1145, '20M ratings RSS MiB');
  within30(t, at(100_000, 100_000, 2_000_000).recd.total / MIB, 614, '2M ratings RSS MiB');
  // bench/scale/big-model.ts, run B: 20M users × 100k items, no lists, once serving: 3,579 MiB.
  within30(t, at(20_000_000, 100_000, 20_000_000, { listLength: 0 }).recd.total / MIB, 3579, '20M users RSS MiB');
});

t.test("Redis memory besides the users' ratings keys against the older runs", async (t) => {
  // Those runs predate the sorted set and hash per user: compared here is what the store change left
  // as it was, the total less the users' ratings keys (their records and sets, from the keys by kind).
  const others = (users: number, items: number, ratings: number) => {
    const r = at(users, items, ratings).redis;
    return { before: (r.beforeTraining - r.ratingsStore - users * 304) / MIB, trainedGrowth: (r.trained - r.beforeTraining) / MIB };
  };
  // bench/scale/scale.ts on one Redis: 5M ratings of 250k users, 382 MiB, records and sets 27.4 + 11.7 bytes a rating.
  within30(t, others(250_000, 100_000, 5_000_000).before, 382 - (39.1 * 5e6) / MIB, '5M of 250k users, MiB besides the ratings keys');
  // The same with 1M users: 669 MiB, records and sets 49.8 + 30.4 bytes a rating.
  within30(t, others(1_000_000, 100_000, 5_000_000).before, 669 - (80.2 * 5e6) / MIB, '5M of 1M users, MiB besides the ratings keys');
  // bench/scale/scale.ts, one Redis, 20M ratings: 1,469 MiB, records and sets 28.2 + 10.5 bytes a rating.
  within30(t, others(1_000_000, 100_000, 20_000_000).before, 1469 - (38.7 * 20e6) / MIB, '20M, MiB besides the ratings keys');
  // Trained less before: 1M ratings 124 − 77 MiB, 20M ratings 2,248 − 1,469 MiB (that run's model had
  // a list slot for every user, as the 20M plan lists every user).
  within30(t, others(50_000, 20_000, 1_000_000).trainedGrowth, 124 - 77, '1M ratings, Redis growth at training MiB');
  within30(t, others(1_000_000, 100_000, 20_000_000).trainedGrowth, 2248 - 1469, '20M ratings, Redis growth at training MiB');
});
