// What /metrics reports of the engine and Redis: how rankings were made (precomputed list, inline,
// scoring pool), changed users prepared ahead of their requests, training runs, the held models' age and size per database, bulk rows, Redis
// command latency.
import { rmSync } from 'node:fs';
import t from 'tap';
import { uid } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { N_ITEMS, RATINGS, RECO_ENV, trainedDatabase, until } from '../helpers/reco.js';
import { startRedis, startStack } from '../helpers/stack.js';

const { server, dir } = await startRedis();
const a = await startStack({ ...RECO_ENV, RECD_METRICS_PORT: '0' }, server);
const b = await startStack({ ...RECO_ENV, RECD_METRICS_PORT: '0', RECD_SCORING_INLINE_WORK: '0' }, server);
t.teardown(async () => {
  await a.close();
  await b.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const scrape = async (s: typeof a) => (await fetch(`http://127.0.0.1:${s.app.metricsPort}/metrics`)).text();
// A sample's value (0 when absent): name{labels} as written by prom-client, labels in their order.
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

const root = await rootToken(a.api);
const { db, token } = await trainedDatabase(a.api, root);

t.test('training runs counted by task and phase, with their durations', async (t) => {
  // Either process may have run them: the two add up to the runs the database had.
  const [ta, tb] = [await scrape(a), await scrape(b)];
  const runs = (phase: string) =>
    value(ta, `recd_training_runs_total{task="ml_model_retrain",phase="${phase}"}`)
    + value(tb, `recd_training_runs_total{task="ml_model_retrain",phase="${phase}"}`);
  t.ok(runs('started') >= 1, 'a retrain started');
  t.equal(runs('completed'), runs('started'), 'each completed');
  t.equal(runs('failed'), 0);
  const count =
    value(ta, 'recd_training_run_duration_seconds_count{task="ml_model_retrain",phase="completed"}')
    + value(tb, 'recd_training_run_duration_seconds_count{task="ml_model_retrain",phase="completed"}');
  t.equal(count, runs('completed'), 'a duration per run');
});

t.test('scoring paths: precomputed lists and inline on one process, the pool on the other', async (t) => {
  const before = await scrape(a);
  t.equal((await a.api.get('recommendation/items/3/items/', { token, query: 'amt=5' })).status, 200);
  const session = { amt: 10, ratings: [{ item_id: 25, rating: 9 }] };
  t.equal((await a.api.post('recommendation/sessions/items/', session, { token })).status, 200);
  const after = await scrape(a);
  const delta = (path: string) =>
    value(after, `recd_scoring_rankings_total{path="${path}"}`) - value(before, `recd_scoring_rankings_total{path="${path}"}`);
  t.equal(delta('precomputed'), 1, "item to items: the item's list");
  t.equal(delta('inline'), 1, 'the session: scored on the event loop');
  t.equal(delta('pool'), 0);

  const poolBefore = value(await scrape(b), 'recd_scoring_rankings_total{path="pool"}');
  t.equal((await b.api.post('recommendation/sessions/items/', session, { token })).status, 200);
  t.equal(value(await scrape(b), 'recd_scoring_rankings_total{path="pool"}') - poolBefore, 1, 'RECD_SCORING_INLINE_WORK=0: the pool');
});

t.test('the held model: age and size per database', async (t) => {
  const text = await scrape(a);
  const bytes = value(text, `recd_model_bytes{db="${db}"}`);
  const age = value(text, `recd_model_age_seconds{db="${db}"}`);
  t.ok(bytes > 1000, `size ${bytes}`);
  t.ok(age >= 0 && age < 600, `age ${age}`);
});

t.test('bulk rows ingested, by kind', async (t) => {
  const text = await scrape(a);
  t.equal(value(text, 'recd_bulk_rows_ingested_total{kind="ratings"}'), RATINGS.length, 'the planted ratings (ratings-bulk/)');
  t.equal(value(text, 'recd_bulk_rows_ingested_total{kind="items"}'), N_ITEMS, 'the items (items-bulk/properties/)');
  t.equal(value(text, 'recd_bulk_rows_ingested_total{kind="users"}'), 0);
  t.equal(value(await scrape(b), 'recd_bulk_rows_ingested_total{kind="ratings"}'), 0, 'each process counts its own');
});

t.test('Redis commands timed', async (t) => {
  const before = value(await scrape(a), 'recd_redis_command_duration_seconds_count{outcome="ok"}');
  t.equal(
    (await a.api.put('ratings-bulk/', { ratings: [{ user_id: uid(1), item_id: 2, rating: 3, timestamp: 1_700_000_000 }] }, { token }))
      .status,
    200,
  );
  const after = await scrape(a);
  t.ok(value(after, 'recd_redis_command_duration_seconds_count{outcome="ok"}') > before, 'the write sent commands');
  t.ok(value(after, 'recd_redis_command_duration_seconds_sum{outcome="ok"}') > 0);
});

t.test("a changed user's profile is prepared off the request path, by every process", async (t) => {
  const user = uid(3);
  // Each process serves the user once, and so follows the database's changes from then on.
  for (const s of [a, b]) t.equal((await s.api.get(`recommendation/users/${user}/items/`, { token, query: 'amt=5' })).status, 200);
  const prepared = (text: string) => value(text, 'recd_fresh_profiles_total{outcome="prepared"}');
  const before = [prepared(await scrape(a)), prepared(await scrape(b))];
  t.equal(
    (await a.api.put(`users/${user}/ratings/`, { ratings: [{ item_id: 7, rating: 9 }] }, { token })).status,
    200,
    'written through one process',
  );
  for (const [k, s] of [a, b].entries())
    await until(
      `prepared by process ${k}`,
      () => scrape(s),
      (text) => prepared(text) > before[k]!,
      10_000,
    );
  const r = await b.api.get(`recommendation/users/${user}/items/`, { token, query: 'amt=5' });
  t.equal(r.status, 200, 'then answered from it');
});
