// Automatic retrains wait for writes to settle (engine/training/quiet-period.ts): a retrain queued when
// the ratings crossed a threshold does not start while the database keeps receiving feedback, its
// record says why, and once the writes pause it trains on all of them; a retrain asked for
// explicitly starts at once, writes or not.
import t from 'tap';
import { rootToken } from '../helpers/fixtures.js';
import { RECO_ENV, pause, tasksOf, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { freshDatabase } from '../helpers/feedback.js';

const QUIET = 3;
const stack = await startStack({ ...RECO_ENV, RECD_TRAINING_QUIET_SECONDS: String(QUIET), RECD_TRAINING_POLL_MS: '100' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

// n ratings of users from `from` on, 10 items each of 40.
const ratingsOf = (from: number, n: number) =>
  Array.from({ length: n }, (_, k) => ({ user_id: from + Math.floor(k / 10), item_id: 1 + ((k * 7) % 40), rating: 1 + (k % 10) }));

t.test('an automatic retrain waits while writes go on, then trains on all of them', async (t) => {
  const { token } = await freshDatabase(api, root, { user_id_type: 'uint32' });
  t.equal((await api.put('ratings-bulk/', { ratings: ratingsOf(1, 600) }, { token })).status, 200, 'past the first threshold (500)');
  let written = 600;
  for (let k = 1; k <= 8; k++) {
    await pause(500);
    t.equal((await api.put('ratings-bulk/', { ratings: ratingsOf(1000 + 10 * k, 10) }, { token })).status, 200);
    written += 10;
    const runs = await tasksOf(api, token, 'ml_model_retrain');
    t.same(
      runs.map((r) => r.status),
      ['QUEUED'],
      `after ${k * 0.5} s of writes: still queued`,
    );
  }
  const [queued] = await tasksOf(api, token, 'ml_model_retrain');
  t.match(queued!.progress, /^waiting for writes to settle/, 'the record says why');
  const done = await until(
    'the retrain done',
    () => tasksOf(api, token, 'ml_model_retrain'),
    (r) => r[0]?.status === 'COMPLETED',
    30_000,
  );
  t.equal(done.length, 1, 'one run for the whole burst');
  const models = (await api.get('pretrained-ml/trained-models/', { token })).body.models as { n_ratings: number }[];
  t.equal(models[0]!.n_ratings, written, 'trained on every rating written');
});

t.test('a retrain asked for explicitly starts at once, writes or not', async (t) => {
  const { token } = await freshDatabase(api, root, { user_id_type: 'uint32' });
  t.equal((await api.put('ratings-bulk/', { ratings: ratingsOf(1, 600) }, { token })).status, 200);
  const asked = await api.post('tasks/ml_model_retrain/', {}, { token });
  t.equal(asked.status, 200);
  let writing = true;
  const writes = (async () => {
    for (let k = 0; writing; k++) {
      await api.put('ratings-bulk/', { ratings: ratingsOf(2000 + 10 * k, 10) }, { token });
      await pause(300);
    }
  })();
  const started = Date.now();
  await until(
    'the asked-for run started',
    () => tasksOf(api, token, 'ml_model_retrain'),
    (r) => r.some((x) => x.task_id === asked.body.task_id && x.status !== 'QUEUED'),
    30_000,
  );
  writing = false;
  await writes;
  t.ok(Date.now() - started < QUIET * 1000, `it started within ${Date.now() - started} ms, before any quiet period`);
});

t.test('a retrain asked for while an automatic run fits its factors stops that run: one full run, not two', async (t) => {
  // Many iterations on one thread: the automatic run spends seconds fitting, before any list.
  const slow = await startStack({ ...RECO_ENV, RECD_ALS_ITERATIONS: '400', RECD_TRAINING_THREADS: '1', RECD_TRAINING_POLL_MS: '100' });
  t.teardown(() => slow.close());
  const admin = await rootToken(slow.api);
  const { token } = await freshDatabase(slow.api, admin, { user_id_type: 'uint32' });
  t.equal((await slow.api.put('ratings-bulk/', { ratings: ratingsOf(1, 20_000) }, { token })).status, 200);
  const [auto] = await until(
    'the automatic run fits',
    () => tasksOf(slow.api, token, 'ml_model_retrain'),
    (r) => r.length === 1 && /^iteration/.test(r[0]!.progress ?? ''),
    60_000,
  );
  const asked = await slow.api.post('tasks/ml_model_retrain/', {}, { token });
  t.equal(asked.status, 200);
  const runs = await until(
    'both settled',
    () => tasksOf(slow.api, token, 'ml_model_retrain'),
    (r) => r.length === 2 && r.every((x) => x.status === 'COMPLETED' || x.status === 'FAILED'),
    120_000,
  );
  const first = runs.find((x) => x.task_id === auto!.task_id)!;
  t.equal(first.status, 'FAILED', 'the automatic run stopped');
  t.match(first.error, /^stopped early: a retrain asked for meanwhile/, 'its record says why');
  t.equal(runs.find((x) => x.task_id === asked.body.task_id)!.status, 'COMPLETED', 'the one asked for trained');
  t.equal(((await slow.api.get('pretrained-ml/trained-models/', { token })).body.models as unknown[]).length, 1, 'one model published');
});
