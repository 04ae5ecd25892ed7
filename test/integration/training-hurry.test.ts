// A retrain requested (POST tasks/ml_model_retrain/) while a training makes its users' lists ends
// that phase early: the model is published with the users listed so far (the others get a list on
// their first request) and the run asked for starts at once, instead of minutes later at scale.
// Automatic triggers never cut a run short. Real HTTP and Redis; every wait is a deadline poll.
import t from 'tap';
import { freshDatabase, uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { tasksOf, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

// Enough users that one training thread takes seconds over their lists (a block of 512 users takes
// tens of ms), so the request lands inside that phase with a wide margin.
const USERS = 40_000,
  ITEMS = 4_000,
  PER_USER = 6;
const s = await startStack({
  RECD_ALS_FACTORS: '32',
  RECD_ALS_ITERATIONS: '2',
  RECD_SEARCH_SECONDS: '0',
  RECD_TRAINING_POLL_MS: '50',
  RECD_TRAINING_THREADS: '1',
});
t.teardown(() => s.close());
const root = await rootToken(s.api);
const { token } = await freshDatabase(s.api, root);

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
const ratings = [];
for (let u = 0; u < USERS; u++) {
  for (let k = 0; k < PER_USER; k++)
    ratings.push({
      user_id: uid(u),
      item_id: 1 + Math.floor(random() ** 2 * ITEMS),
      rating: 1 + Math.floor(random() * 5),
      timestamp: 1_700_000_000 + u,
    });
}
// One request: its count crosses the thresholds at once, so one automatic retrain is queued.
const stored = await s.api.put('ratings-bulk/', { ratings }, { token });
if (stored.status !== 200) throw new Error(`ratings-bulk/: ${stored.status} ${stored.text.slice(0, 500)}`);

const retrains = () => tasksOf(s.api, token, 'ml_model_retrain');
const listing = (p?: string) => p?.startsWith('user lists ') === true;

t.test("an automatic trigger during the users' lists does not cut them short", async (t) => {
  const [auto] = await until(
    "the automatic retrain makes users' lists",
    retrains,
    (ts) => ts.length === 1 && listing(ts[0]!.progress),
    120_000,
  );
  // Past the next threshold (500 · 2^k ratings): a second automatic retrain is queued behind the first.
  const more = Array.from({ length: 16_200 }, (_, k) => ({
    user_id: uid(k % USERS),
    item_id: 1 + (k % ITEMS),
    rating: 3,
    timestamp: 1_700_100_000 + k,
  }));
  t.equal((await s.api.put('ratings-bulk/', { ratings: more }, { token })).status, 200);
  const ts = await until(
    'both automatic retrains complete',
    retrains,
    (ts) => ts.length === 2 && ts.every((x) => x.status === 'COMPLETED' || x.status === 'FAILED'),
    120_000,
  );
  const first = ts.find((x) => x.task_id === auto!.task_id)!;
  t.equal(first.status, 'COMPLETED', first.error ?? '');
  t.notMatch(first.progress ?? '', /ended early/, 'the first lists every user');
  const models = (await s.api.get('pretrained-ml/trained-models/', { token })).body.models as {
    metrics: { users_listed: number; lists_seconds: number };
  }[];
  t.same(
    models.map((m) => m.metrics.users_listed),
    [USERS, USERS],
    `every user listed by both (lists took ${models.map((m) => m.metrics.lists_seconds.toFixed(2)).join(' and ')} s)`,
  );
});

t.test("a retrain requested during the users' lists ends them early; the one asked for follows", async (t) => {
  const first = await s.api.post('tasks/ml_model_retrain/', undefined, { token });
  t.equal(first.status, 200, first.text);
  const running = await until(
    "the requested retrain makes users' lists",
    retrains,
    (ts) => ts.some((x) => x.task_id === first.body.task_id && listing(x.progress)),
    120_000,
  );
  t.ok(running.length > 0);
  const second = await s.api.post('tasks/ml_model_retrain/', undefined, { token });
  t.equal(second.status, 200, second.text);
  t.not(second.body.task_id, first.body.task_id, 'a new run queued behind the one in progress');
  const ts = await until(
    'both runs complete',
    retrains,
    (ts) => [first, second].every((r) => ts.find((x) => x.task_id === r.body.task_id)?.status === 'COMPLETED'),
    120_000,
  );
  const cut = ts.find((x) => x.task_id === first.body.task_id)!;
  t.match(
    cut.progress ?? '',
    /users' lists ended early for the retrain requested meanwhile \(\d+ of 40000 users listed\)/,
    cut.progress ?? '',
  );
  const listed = Number(/\((\d+) of/.exec(cut.progress ?? '')![1]);
  t.ok(listed > 0 && listed < USERS, `${listed} users listed, a prefix of them`);
  const after = ts.find((x) => x.task_id === second.body.task_id)!;
  t.notMatch(after.progress ?? '', /ended early/, 'the run asked for lists every user: nothing waits behind it');
  const models = (await s.api.get('pretrained-ml/trained-models/', { token })).body.models as { metrics: { users_listed: number } }[];
  t.same(
    models.slice(0, 3).map((m) => m.metrics.users_listed),
    [USERS, listed, USERS],
    'newest first: the run asked for, the one cut short, the last automatic one',
  );
});
