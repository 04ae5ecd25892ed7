// The periodic retrain: a database whose feedback no model has seen for RECD_RETRAIN_INTERVAL_SECONDS
// (a week by default; 2 s here) is retrained even below the 500-rating threshold, and only then.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { freshDatabase, uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { modelsOf, pause, RECO_ENV, settled, statusOf, tasksOf, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ ...RECO_ENV, RECD_RETRAIN_INTERVAL_SECONDS: '2' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);

const ratings = (from: number, n: number) =>
  Array.from({ length: n }, (_, k) => ({ user_id: uid(from + (k % 7)), item_id: 1 + ((from + k) % 13), rating: 1 + (k % 10) }));

t.test('feedback unseen for the interval triggers a retrain; a database without new feedback is left alone', async (t) => {
  const { token } = await freshDatabase(api, root);
  t.equal((await api.put('ratings-bulk/', { ratings: ratings(0, 40) }, { token })).status, 200);
  t.same(await tasksOf(api, token, 'ml_model_retrain'), [], 'below 500 ratings: no threshold task');
  const done = await until(
    'a periodic retrain completes',
    () => tasksOf(api, token, 'ml_model_retrain'),
    (ts) => ts.some((x) => x.status === 'COMPLETED'),
    30_000,
  );
  const run = done.find((x) => x.status === 'COMPLETED')!;
  t.match(run.progress, /^model /, 'it published a model');
  t.equal(await statusOf(api, token), 'ready');
  t.equal((await modelsOf(api, token)).length, 1);

  // No new feedback: several intervals pass without another run.
  await pause(5000);
  t.equal((await tasksOf(api, token, 'ml_model_retrain')).length, done.length, 'no run without new feedback');

  // New feedback: retrained again after the interval.
  t.equal((await api.put('ratings-bulk/', { ratings: ratings(100, 10) }, { token })).status, 200);
  await until(
    'a second periodic retrain',
    () => modelsOf(api, token),
    (ms) => ms.length === 2,
    30_000,
  );
  // The model is announced a moment before its task record says COMPLETED.
  const runs = await until('the run recorded as ended', () => tasksOf(api, token, 'ml_model_retrain'), settled, 30_000);
  t.ok(
    runs.every((x) => x.status === 'COMPLETED'),
    'every run completed',
  );
  t.equal(runs.length, done.length + 1, 'one more run for the new feedback');
});
