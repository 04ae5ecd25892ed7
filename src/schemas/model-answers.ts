// Answers about background work: tasks, trained models and precomputed tables.
import { Type } from '@sinclair/typebox';
import { Answer, Closed, Nullable, OpenMap, Seconds } from './answer-parts.js';

export const TaskQueued = Answer({ task_id: Type.String({ description: 'follow it at tasks/<task_name>/recents/' }) });

const TaskStatus = Type.Union(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'].map((s) => Type.Literal(s)));
export const TaskRecords = Answer({
  tasks: Type.Array(
    Closed({
      task_id: Type.String(),
      name: Type.String(),
      start_time: Seconds,
      end_time: Nullable(Seconds),
      status: TaskStatus,
      progress: Type.String(),
      error: Nullable(Type.String()),
    }),
    { description: 'newest first' },
  ),
});

const Quality = { ndcg_at_10: Type.Number(), recall_at_10: Type.Number() };
const TrialCommon = { ...Quality, seconds: Type.Number(), second_split_ndcg_at_10: Type.Optional(Type.Number()) };
const Weights = {
  weight_cut: Type.Number(),
  weight_below: Type.Number(),
  weight_by_quantile: Type.Boolean(),
  als_weight: Type.Optional(Type.Number()),
  als_trial: Type.Optional(Type.Integer()),
};
const Trial = Type.Union([
  Closed({
    ...TrialCommon,
    model: Type.Literal('als'),
    factors: Type.Integer(),
    regularization: Type.Number(),
    alpha: Type.Number(),
    unobserved: Type.Number(),
    reg_exponent: Type.Number(),
    rating_shift: Type.Number(),
    rating_floor: Type.Number(),
  }),
  Closed({
    ...TrialCommon,
    model: Type.Literal('ease'),
    items: Type.Integer(),
    lambda: Type.Number(),
    lambda_scale: Type.Number(),
    ...Weights,
  }),
  Closed({ ...TrialCommon, model: Type.Literal('item-knn'), items: Type.Integer(), neighbours: Type.Integer(), ...Weights }),
  Closed({ ...TrialCommon, model: Type.Literal('popularity') }),
]);
const Search = Closed(
  {
    at: Seconds,
    ratings: Type.Integer(),
    sampled_ratings: Type.Integer(),
    validation_users: Type.Integer(),
    relevant_from: Type.Number(),
    seconds: Type.Number(),
    budget_seconds: Type.Optional(
      Type.Number({
        description:
          'what the data allowed the search (12 s and 15 s a million sampled ratings, up to RECD_SEARCH_SECONDS); absent on searches before it grew with the data',
      }),
    ),
    ended: Type.Optional(
      Type.Union([Type.Literal('trials'), Type.Literal('budget'), Type.Literal('no gain')], {
        description: "why ALS's trials ended: the most trials, the budget, or validation stopped improving",
      }),
    ),
    trials: Type.Array(Trial),
    chosen: Type.Integer({ description: "index in trials: the model serving users' lists" }),
    chosen_als: Type.Integer({ description: "index in trials: the ALS parameters of the model's factors" }),
    popularity: Closed(Quality),
  },
  { description: 'the parameter search that chose params' },
);
export const TrainedModels = Answer({
  models: Type.Array(
    Closed({
      model_id: Type.String(),
      timestamp: Seconds,
      algorithm: Type.String({ description: "als, or <lists>+als (users' lists from <lists>), optionally +new-items" }),
      n_users: Type.Integer(),
      n_items: Type.Integer(),
      n_ratings: Type.Integer(),
      factors: Type.Integer(),
      item_list: Type.Integer(),
      user_list: Type.Integer(),
      bytes: Type.Integer(),
      metrics: OpenMap(Type.Number(), 'quality measures by name'),
      params: OpenMap(Type.Number(), 'training parameters by name'),
      search: Type.Optional(Search),
      ratings_log_id: Type.Optional(Type.String()),
      parts: Type.Optional(Type.Integer()),
      serving: Type.Boolean({ description: 'the model recommendations use' }),
      loaded: Type.Boolean({ description: 'held in this process' }),
    }),
    { description: 'newest first' },
  ),
});

export const PrecomputedTables = Answer({
  tables: Type.Array(
    Closed({
      name: Type.String(),
      reco_type: Type.Union([Type.Literal('item_to_items'), Type.Literal('profile_to_items')]),
      amt: Type.Integer(),
      created: Seconds,
      built: Nullable(Closed({ model_id: Type.String(), built_at: Seconds, rows: Type.Integer() })),
    }),
  ),
});
