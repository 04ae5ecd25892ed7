// The parameter search a training runs (engine/training/search.ts), seen through the API: the first
// training searches and publishes what it chose with the trials, the validation metrics of the chosen
// model and of popularity; the task's record says it; a retrain without new data reuses the choice.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { rootToken } from '../helpers/fixtures.js';
import { RATINGS, RECO_ENV, statusOf, tasksOf, trainedDatabase, until, settled } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import type { SearchSummary, Trial } from '../../src/store/models-store.js';
import { triggerAfterRuns } from '../helpers/trigger.js';
import { likedFrom } from '../../native-free-kernels/validation.js';
import { freshDatabase, uid } from '../helpers/feedback.js';

const TRIALS = 8;
const stack = await startStack({ ...RECO_ENV, RECD_SEARCH_SECONDS: '120', RECD_SEARCH_TRIALS: String(TRIALS) });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token, modelId } = await trainedDatabase(api, root);

interface Model {
  model_id: string;
  algorithm: string;
  factors: number;
  metrics: Record<string, number>;
  params: Record<string, number>;
  search: SearchSummary;
}
const models = async (): Promise<Model[]> => (await api.get('pretrained-ml/trained-models/', { token })).body.models;

t.test('the first training searches and publishes its choice, its trials and the validation metrics', async (t) => {
  const [m] = await models();
  t.equal(m!.model_id, modelId);
  const s = m!.search;
  t.ok(s, 'the model carries its search');
  t.ok(s.trials.length >= 2 && s.trials.length <= TRIALS, `${s.trials.length} trials, at most ${TRIALS}`);
  t.match(
    s.trials[0],
    { model: 'als', factors: 8, regularization: 20, alpha: 0.25, unobserved: 1, reg_exponent: 0, rating_shift: 0, rating_floor: 0 },
    'trial 0: the configured parameters',
  );
  for (const model of ['ease', 'item-knn', 'popularity'])
    t.ok(
      s.trials.some((x) => x.model === model),
      `${model} is a candidate`,
    );
  const chosen = s.trials[s.chosen]!;
  const confirmed = s.trials.filter((x) => x.second_split_ndcg_at_10 !== undefined);
  if (confirmed.length === 0)
    t.equal(chosen.ndcg_at_10, Math.max(...s.trials.map((x) => x.ndcg_at_10)), 'the chosen trial has the best validation NDCG@10');
  else {
    // The leaders were fitted again on a second split: the best three, trial 0 and the best ALS.
    const leaders = [...s.trials].sort((a, b) => b.ndcg_at_10 - a.ndcg_at_10).slice(0, 3);
    for (const x of leaders) t.type(x.second_split_ndcg_at_10, 'number', 'a leader is confirmed');
    t.type(s.trials[0]!.second_split_ndcg_at_10, 'number', 'trial 0 is confirmed');
    t.ok(confirmed.length <= 5, 'only the leaders');
    const mean = (x: Trial) => (x.ndcg_at_10 + x.second_split_ndcg_at_10!) / 2;
    t.equal(mean(chosen), Math.max(...confirmed.map(mean)), 'the chosen trial has the best mean over both splits');
  }
  for (const x of s.trials) {
    t.ok(x.ndcg_at_10 >= 0 && x.ndcg_at_10 <= 1 && x.recall_at_10 >= 0 && x.recall_at_10 <= 1, 'metrics in [0, 1]');
    t.ok(x.seconds > 0, 'timed');
  }
  t.equal(s.ratings, RATINGS.length, 'searched on all the ratings');
  t.ok(
    s.sampled_ratings < RATINGS.length && s.sampled_ratings > 0.7 * RATINGS.length,
    `trials train without the held-out ratings (${s.sampled_ratings})`,
  );
  t.ok(s.validation_users > 0 && s.validation_users <= 70, `${s.validation_users} validation users`);
  t.equal(
    s.relevant_from,
    likedFrom(Float32Array.from(RATINGS, (x) => x.rating)),
    'held-out ratings from the value splitting them nearest half are relevant',
  );
  t.ok(
    s.popularity.ndcg_at_10 >= 0 && s.popularity.ndcg_at_10 < chosen.ndcg_at_10,
    `the chosen model beats popularity on the planted data (${chosen.ndcg_at_10} vs ${s.popularity.ndcg_at_10})`,
  );
  t.equal(m!.metrics.validation_ndcg_at_10, chosen.ndcg_at_10);
  t.equal(m!.metrics.validation_recall_at_10, chosen.recall_at_10);
  t.equal(m!.metrics.popularity_ndcg_at_10, s.popularity.ndcg_at_10);
  t.equal(m!.metrics.search_seconds, s.seconds);
  t.ok(
    s.budget_seconds! > 12 && s.budget_seconds! < 13,
    `a budget of ${s.budget_seconds} s for ${s.sampled_ratings} ratings: 12 s and 15 s a million`,
  );
  t.ok(['trials', 'budget', 'no gain'].includes(s.ended!), `ended: ${s.ended}`);
  // The factors come from the best ALS trial (the chosen one unless EASE won the users' lists).
  const als = s.trials[s.chosen_als]!;
  if (als.model !== 'als') throw new Error(`chosen_als ${s.chosen_als} is not an ALS trial`);
  if (chosen.model === 'als') t.equal(s.chosen_als, s.chosen, 'ALS won: its trial gives the factors');
  else if (chosen.model === 'ease')
    t.match(
      m!.params,
      {
        ease_lambda_scale: chosen.lambda_scale,
        ease_weight_cut: chosen.weight_cut,
        ease_weight_below: chosen.weight_below,
        ease_weight_by_quantile: chosen.weight_by_quantile ? 1 : 0,
        ease_items: chosen.items,
      },
      'EASE won: its parameters are published',
    );
  else if (chosen.model === 'item-knn')
    t.match(
      m!.params,
      {
        knn_neighbours: chosen.neighbours,
        knn_weight_cut: chosen.weight_cut,
        knn_weight_below: chosen.weight_below,
        knn_weight_by_quantile: chosen.weight_by_quantile ? 1 : 0,
        knn_items: chosen.items,
      },
      'item-KNN won: its parameters are published',
    );
  t.equal(m!.algorithm, chosen.model === 'als' ? 'als' : `${chosen.model}+als`);
  t.match(
    m!.params,
    {
      factors: als.factors,
      regularization: als.regularization,
      alpha: als.alpha,
      unobserved: als.unobserved,
      reg_exponent: als.reg_exponent,
      rating_shift: als.rating_shift,
      rating_floor: als.rating_floor,
      iterations: 4,
    },
    'published ALS parameters: the chosen ones, fitted with the configured iterations',
  );
  t.equal(m!.factors, als.factors, 'the model has the chosen factors');
  const [task] = (await tasksOf(api, token, 'ml_model_retrain')).filter((x) => x.status === 'COMPLETED');
  t.match(
    task!.progress,
    new RegExp(
      `validation NDCG@10 ${chosen.ndcg_at_10.toFixed(4)} \\(popularity ${s.popularity.ndcg_at_10.toFixed(4)}\\), ${s.trials.length} search trials`,
    ),
    String(task!.progress),
  );
  const r = await api.get(`recommendation/users/${uid(3)}/items/`, { token, query: 'amt=5' });
  t.equal(r.status, 200, 'the chosen model serves');
});

t.test('a retrain without new data keeps the chosen parameters without searching again, fitted from the last factors', async (t) => {
  const [first] = await models();
  const r = await triggerAfterRuns(api, stack.redis, db, token, 'ml_model_retrain');
  t.equal(r.status, 200, r.text);
  const again = await until('the retrain published', models, (ms) => ms.length === 2 && ms[0]!.model_id !== first!.model_id);
  await until('retrain settled', () => tasksOf(api, token, 'ml_model_retrain'), settled);
  const m = again[0]!;
  t.equal(m.metrics.search_seconds, 0, 'no search this time');
  t.same(m.search, first!.search, 'the search that chose the parameters is carried along');
  t.same({ ...m.params, iterations: 4 }, first!.params, 'same parameters');
  t.equal(m.params.iterations, 2, 'a third of the configured 4 iterations (rounded up), from the last factors');
  t.equal(m.metrics.warm_start, 1);
  t.equal(first!.metrics.warm_start, 0, 'the first training started afresh');
  const task = (await tasksOf(api, token, 'ml_model_retrain')).find(
    (x) => x.status === 'COMPLETED' && (x.progress ?? '').includes(m.model_id),
  );
  t.match(task?.progress, /fitted from the last model's factors in 2 iterations/);
  t.equal(m.metrics.validation_ndcg_at_10, first!.metrics.validation_ndcg_at_10);
});

t.test('a young database (fewer than 20 validation users) runs trial 0 alone', async (t) => {
  const d = await freshDatabase(api, root);
  const ratings = [];
  for (let u = 0; u < 10; u++)
    for (let i = 1; i <= 60; i++) ratings.push({ user_id: uid(u), item_id: i, rating: 1 + ((u + i) % 10), timestamp: 1_700_000_000 + i });
  const r = await api.put('ratings-bulk/', { ratings }, { token: d.token });
  t.equal(r.status, 200, r.text);
  await until(
    'ready',
    () => statusOf(api, d.token),
    (s) => s === 'ready',
  );
  await until('training settled', () => tasksOf(api, d.token, 'ml_model_retrain'), settled);
  const [m] = (await api.get('pretrained-ml/trained-models/', { token: d.token })).body.models as Model[];
  t.equal(m!.search.validation_users, 10, 'every user is a validation user');
  t.equal(m!.search.trials.length, 1, 'one trial');
  t.equal(m!.search.chosen, 0);
  t.match(m!.params, { factors: 8, regularization: 20, alpha: 0.25 }, 'the configured parameters');
});

t.test('implicit feedback alone: interactions train, search every candidate and serve', async (t) => {
  const d = await freshDatabase(api, root);
  // Two groups of 40 users, each viewing 8 of its group's 20 items and buying 2 of them.
  const interactions = [];
  for (let u = 0; u < 80; u++) {
    for (let j = 0; j < 10; j++) {
      const item = ((u * 3 + j * 7) % 20) + (u < 40 ? 1 : 21);
      interactions.push({
        user_id: uid(u),
        item_id: item,
        interaction_type: j < 2 ? 'purchase' : 'view',
        timestamp: 1_700_000_000 + u * 10 + j,
      });
    }
  }
  const r = await api.post('interactions-bulk/', { interactions }, { token: d.token });
  t.equal(r.status, 200, r.text);
  await until(
    'ready',
    () => statusOf(api, d.token),
    (s) => s === 'ready',
  );
  await until('training settled', () => tasksOf(api, d.token, 'ml_model_retrain'), settled);
  const [m] = (await api.get('pretrained-ml/trained-models/', { token: d.token })).body.models as Model[];
  const s = m!.search;
  t.equal(s.ratings, 800, 'every inferred rating trained on');
  t.equal(s.relevant_from, 9.5, 'purchases (9.5, a fifth of the values) split the values nearer half than views (6, all of them)');
  for (const model of ['als', 'ease', 'item-knn', 'popularity'])
    t.ok(
      s.trials.some((x) => x.model === model),
      `${model} tried`,
    );
  t.ok(s.trials[s.chosen]!.ndcg_at_10 > s.popularity.ndcg_at_10, 'the choice beats popularity on grouped data');
  const got = await api.get(`recommendation/users/${uid(3)}/items/`, { token: d.token, query: 'amt=5&exclude_rated_items=true' });
  t.equal(got.status, 200, got.text);
  t.ok(
    got.body.items_id.every((i: number) => i >= 1 && i <= 20),
    `a user of the first group gets its items: ${JSON.stringify(got.body.items_id)}`,
  );
});
