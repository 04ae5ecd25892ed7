// EASE as the search's choice (RECD_SEARCH_CANDIDATES=ease), seen through the API: the model says
// so and publishes EASE's parameters, users' lists are EASE's ranking of the published parameters
// (checked against the reference twin of the kernels computed here from the same ratings), and a
// retrain without a search keeps serving EASE's lists.
import t from 'tap';
import { csrFromTriples } from '../../native-free-kernels/csr.js';
import { easeWeights, inverse, weightedGram } from '../../native-free-kernels/reference/ease.js';
import { rootToken } from '../helpers/fixtures.js';
import { itemsOf, N_ITEMS, RATINGS, RECO_ENV, settled, tasksOf, trainedDatabase, until } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { uid } from '../helpers/feedback.js';
import { triggerAfterRuns } from '../helpers/trigger.js';
import type { SearchSummary } from '../../src/store/models-store.js';

const stack = await startStack({ ...RECO_ENV, RECD_SEARCH_SECONDS: '60', RECD_SEARCH_TRIALS: '4', RECD_SEARCH_CANDIDATES: 'ease' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const { db, token } = await trainedDatabase(api, root);

interface Model {
  model_id: string;
  algorithm: string;
  metrics: Record<string, number>;
  params: Record<string, number>;
  search: SearchSummary;
}
const models = async (): Promise<Model[]> => (await api.get('pretrained-ml/trained-models/', { token })).body.models;

// EASE's scores of every item for each planted user, from the published parameters: users are rows
// 0..69 (uid order), items 1..40 columns 0..39.
function referenceScores(p: Record<string, number>): Float64Array[] {
  const users = 70;
  const row = new Map(Array.from({ length: users }, (_, u) => [uid(u), u]));
  const m = csrFromTriples(
    users,
    N_ITEMS,
    Uint32Array.from(RATINGS, (x) => row.get(x.user_id)!),
    Uint32Array.from(RATINGS, (x) => x.item_id - 1),
    Float32Array.from(RATINGS, (x) => x.rating),
  );
  const weight = (v: number) => (v >= p['ease_weight_cut']! ? 1 : p['ease_weight_below']!);
  const weights = Float32Array.from(m.values, weight);
  const n = N_ITEMS;
  const g = weightedGram(m, Int32Array.from({ length: n }, (_, i) => i), weights, n);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += g[i * n + i]!;
  for (let i = 0; i < n; i++) g[i * n + i]! += (p['ease_lambda_scale']! * trace) / n;
  const b = easeWeights(inverse(g, n), n);
  return Array.from({ length: users }, (_, u) => {
    const s = new Float64Array(n);
    for (let e = m.indptr[u]!; e < m.indptr[u + 1]!; e++) for (let j = 0; j < n; j++) s[j]! += weights[e]! * b[m.indices[e]! * n + j]!;
    return s;
  });
}

t.test('the model publishes EASE as its users\' lists and their parameters', async (t) => {
  const [m] = await models();
  t.equal(m!.algorithm, 'ease+als');
  const s = m!.search;
  const chosen = s.trials[s.chosen]!;
  t.equal(chosen.model, 'ease', 'the chosen trial is EASE');
  if (chosen.model !== 'ease') return;
  t.equal(s.trials[s.chosen_als]!.model, 'als', 'the factors come from an ALS trial');
  t.equal(chosen.items, N_ITEMS, 'EASE covers every rated item of a small catalogue');
  t.match(m!.params, { ease_lambda_scale: chosen.lambda_scale, ease_weight_cut: chosen.weight_cut, ease_weight_below: chosen.weight_below, ease_items: chosen.items });
  t.equal(m!.metrics['validation_ndcg_at_10'], chosen.ndcg_at_10, 'validation metrics of the chosen model');
  t.equal(m!.metrics['users_listed'], 70, 'every user with ratings has a list');
});

t.test('user-to-items serves the best unrated items by EASE', async (t) => {
  const [m] = await models();
  const scores = referenceScores(m!.params);
  for (const u of [0, 7, 31, 52, 64]) {
    const rated = new Set(RATINGS.filter((x) => x.user_id === uid(u)).map((x) => x.item_id));
    const r = await api.get(`recommendation/users/${uid(u)}/items/`, { token, query: 'amt=5&exclude_rated_items=true' });
    const ids = itemsOf(t, r, `user ${u}`, 5);
    t.equal(ids.length, 5);
    const unrated = Array.from({ length: N_ITEMS }, (_, j) => j + 1).filter((i) => !rated.has(i));
    const fifth = unrated.map((i) => scores[u]![i - 1]!).sort((a, b) => b - a)[4]!;
    for (const i of ids) {
      t.notOk(rated.has(i), `user ${u}: item ${i} is unrated`);
      // Ties may come in either order: every served item scores at least the fifth best.
      t.ok(scores[u]![i - 1]! >= fifth - 1e-4 * Math.max(1, Math.abs(fifth)), `user ${u}: item ${i} scores ${scores[u]![i - 1]} ≥ the fifth best ${fifth}`);
    }
  }
});

t.test('a retrain without a search keeps EASE for the lists', async (t) => {
  const [first] = await models();
  const r = await triggerAfterRuns(api, stack.redis, db, token, 'ml_model_retrain');
  t.equal(r.status, 200, r.text);
  const again = await until('the retrain published', models, (ms) => ms.length === 2 && ms[0]!.model_id !== first!.model_id);
  await until('retrain settled', () => tasksOf(api, token, 'ml_model_retrain'), settled);
  t.equal(again[0]!.metrics['search_seconds'], 0, 'no search this time');
  t.equal(again[0]!.algorithm, 'ease+als');
  t.same(again[0]!.params, first!.params, 'same parameters, EASE\'s included');
});
