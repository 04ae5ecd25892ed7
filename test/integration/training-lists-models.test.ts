// The search's other candidates for users' lists (RECD_SEARCH_CANDIDATES set to one of them), seen
// through the API: the model says which won and publishes its parameters; users' lists are its
// ranking of each user's unrated items (checked against the kernels' reference twins computed here
// from the same ratings); a retrain without a search keeps the choice.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import t from 'tap';
import { csrFromTriples, type Csr } from '../../native-free-kernels/csr.js';
import { easeWeights, inverse, weightedGram } from '../../native-free-kernels/reference/ease.js';
import { cosineNeighbours } from '../../native-free-kernels/reference/item-knn.js';
import { rootToken } from '../helpers/fixtures.js';
import { itemsOf, N_ITEMS, POPULAR, RATINGS, RECO_ENV, settled, tasksOf, trainedDatabase, until, type Tt } from '../helpers/reco.js';
import { startStack } from '../helpers/stack.js';
import { uid } from '../helpers/feedback.js';
import { triggerAfterRuns } from '../helpers/trigger.js';
import type { SearchSummary } from '../../src/store/models-store.js';

interface Model {
  model_id: string;
  algorithm: string;
  metrics: Record<string, number>;
  params: Record<string, number>;
  search: SearchSummary;
}

const USERS = 70;
const row = new Map(Array.from({ length: USERS }, (_, u) => [uid(u), u]));
// The planted ratings: users are rows 0..69 (uid order), items 1..40 columns 0..39.
const ratings: Csr = csrFromTriples(
  USERS,
  N_ITEMS,
  Uint32Array.from(RATINGS, (x) => row.get(x.user_id)!),
  Uint32Array.from(RATINGS, (x) => x.item_id - 1),
  Float32Array.from(RATINGS, (x) => x.rating),
);

// Each planted user's scores of every item by item weights B (n × n): Σ weight · B's rows of what they rated.
function scoresBy(b: Float32Array, weights: Float32Array): Float64Array[] {
  const n = N_ITEMS;
  return Array.from({ length: USERS }, (_, u) => {
    const s = new Float64Array(n);
    for (let e = ratings.indptr[u]!; e < ratings.indptr[u + 1]!; e++)
      for (let j = 0; j < n; j++) s[j]! += weights[e]! * b[ratings.indices[e]! * n + j]!;
    return s;
  });
}

// A rating's weight: its quantile (the share of all ratings valued at most it), else 1 from the cut on
// and `below` under it.
function weightedGramOf(byQuantile: boolean, cut: number, below: number): { g: Float64Array; weights: Float32Array } {
  const all = [...ratings.values];
  const weights = Float32Array.from(ratings.values, (v) =>
    byQuantile ? all.filter((x) => x <= v).length / all.length : v >= cut ? 1 : below,
  );
  return {
    g: weightedGram(
      ratings,
      Int32Array.from({ length: N_ITEMS }, (_, i) => i),
      weights,
      N_ITEMS,
    ),
    weights,
  };
}

function easeScores(p: Record<string, number>): Float64Array[] {
  const { g, weights } = weightedGramOf(p.ease_weight_by_quantile === 1, p.ease_weight_cut!, p.ease_weight_below!);
  const n = N_ITEMS;
  let trace = 0;
  for (let i = 0; i < n; i++) trace += g[i * n + i]!;
  for (let i = 0; i < n; i++) g[i * n + i]! += (p.ease_lambda_scale! * trace) / n;
  return scoresBy(easeWeights(inverse(g, n), n), weights);
}

function knnScores(p: Record<string, number>): Float64Array[] {
  const { g, weights } = weightedGramOf(p.knn_weight_by_quantile === 1, p.knn_weight_cut!, p.knn_weight_below!);
  return scoresBy(cosineNeighbours(g, N_ITEMS, p.knn_neighbours!), weights);
}

// Served user-to-items for some users: five unrated items, each scoring at least the fifth best
// unrated item (ties may come in either order).
async function servesBest(t: Tt, get: (u: number) => Promise<any>, scores: Float64Array[]) {
  for (const u of [0, 7, 31, 52, 64]) {
    const rated = new Set(RATINGS.filter((x) => x.user_id === uid(u)).map((x) => x.item_id));
    const ids = itemsOf(t, await get(u), `user ${u}`, 5);
    t.equal(ids.length, 5);
    const unrated = Array.from({ length: N_ITEMS }, (_, j) => j + 1).filter((i) => !rated.has(i));
    const fifth = unrated.map((i) => scores[u]![i - 1]!).sort((a, b) => b - a)[4]!;
    for (const i of ids) {
      t.notOk(rated.has(i), `user ${u}: item ${i} is unrated`);
      t.ok(
        scores[u]![i - 1]! >= fifth - 1e-4 * Math.max(1, Math.abs(fifth)),
        `user ${u}: item ${i} scores ${scores[u]![i - 1]} ≥ the fifth best ${fifth}`,
      );
    }
  }
}

for (const candidate of ['ease', 'item-knn', 'popularity', 'blend'] as const) {
  t.test(`${candidate} as the choice`, async (t) => {
    const stack = await startStack({ ...RECO_ENV, RECD_SEARCH_SECONDS: '60', RECD_SEARCH_TRIALS: '10', RECD_SEARCH_CANDIDATES: candidate });
    t.teardown(() => stack.close());
    const { api } = stack;
    const root = await rootToken(api);
    const { db, token } = await trainedDatabase(api, root);
    const models = async (): Promise<Model[]> => (await api.get('pretrained-ml/trained-models/', { token })).body.models;
    const [m] = await models();
    const s = m!.search;
    const chosen = s.trials[s.chosen]!;
    const blended = chosen.model !== 'als' && chosen.model !== 'popularity' && chosen.als_weight !== undefined;
    t.equal(m!.algorithm, `${candidate === 'blend' ? chosen.model : candidate}+als`);
    t.equal(candidate === 'blend' ? (blended ? 'blend' : 'not a blend') : chosen.model, candidate, 'the chosen trial');
    t.equal(s.trials[s.chosen_als]!.model, 'als', 'the factors come from an ALS trial');
    if (blended) {
      t.equal(s.chosen_als, chosen.als_trial, "a blend's factors are its ALS trial's");
      t.equal(m!.params[`${chosen.model === 'ease' ? 'ease' : 'knn'}_als_weight`], chosen.als_weight, 'its ALS weight is published');
    }
    t.equal(m!.metrics.validation_ndcg_at_10, chosen.ndcg_at_10, 'validation metrics of the chosen model');
    t.equal(m!.metrics.users_listed, USERS, 'every user with ratings has a list');
    if (chosen.model === 'ease' && !blended) {
      t.equal(chosen.items, N_ITEMS, 'EASE covers every rated item of a small catalogue');
      t.match(m!.params, {
        ease_lambda_scale: chosen.lambda_scale,
        ease_weight_cut: chosen.weight_cut,
        ease_weight_below: chosen.weight_below,
        ease_weight_by_quantile: chosen.weight_by_quantile ? 1 : 0,
        ease_items: chosen.items,
      });
    }
    if (chosen.model === 'item-knn')
      t.match(m!.params, {
        knn_neighbours: chosen.neighbours,
        knn_weight_cut: chosen.weight_cut,
        knn_weight_below: chosen.weight_below,
        knn_weight_by_quantile: chosen.weight_by_quantile ? 1 : 0,
        knn_items: chosen.items,
      });
    if (chosen.model === 'popularity')
      t.same(
        [chosen.ndcg_at_10, chosen.recall_at_10],
        [s.popularity.ndcg_at_10, s.popularity.recall_at_10],
        "popularity's trial is its validation score",
      );

    const get = (u: number) => api.get(`recommendation/users/${uid(u)}/items/`, { token, query: 'amt=5&exclude_rated_items=true' });
    if (candidate === 'ease') await servesBest(t, get, easeScores(m!.params));
    if (candidate === 'item-knn') await servesBest(t, get, knnScores(m!.params));
    if (candidate === 'blend') {
      for (const u of [0, 31, 64]) {
        const rated = new Set(RATINGS.filter((x) => x.user_id === uid(u)).map((x) => x.item_id));
        const ids = itemsOf(t, await get(u), `user ${u}`, 5);
        t.equal(ids.length, 5);
        t.ok(
          ids.every((i) => !rated.has(i)),
          `user ${u}: only unrated items`,
        );
      }
    }
    if (candidate === 'popularity') {
      // Items 38–40 are rated 25 times, every other item 15 times.
      for (const u of [0, 7, 31]) {
        const ids = itemsOf(t, await get(u), `user ${u}`, 5);
        const rated = new Set(RATINGS.filter((x) => x.user_id === uid(u)).map((x) => x.item_id));
        const popular = POPULAR.filter((i) => !rated.has(i));
        t.same(new Set(ids.slice(0, popular.length)), new Set(popular), `user ${u}: the most popular unrated items first`);
        t.ok(
          ids.every((i) => !rated.has(i)),
          `user ${u}: only unrated items`,
        );
      }
    }

    const r = await triggerAfterRuns(api, stack.redis, db, token, 'ml_model_retrain');
    t.equal(r.status, 200, r.text);
    const again = await until('the retrain published', models, (ms) => ms.length === 2 && ms[0]!.model_id !== m!.model_id);
    await until('retrain settled', () => tasksOf(api, token, 'ml_model_retrain'), settled);
    t.equal(again[0]!.metrics.search_seconds, 0, 'a retrain without a search');
    t.equal(again[0]!.algorithm, m!.algorithm, 'keeps the choice');
    t.same({ ...again[0]!.params, iterations: m!.params.iterations }, m!.params, 'and its parameters');
    t.equal(again[0]!.params.iterations, 2, 'fitted from the last factors in a third of the iterations');
  });
}
