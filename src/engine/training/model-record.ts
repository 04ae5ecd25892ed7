// What a training publishes about its model (models-store.ts ModelMeta), and the parameters a
// database's next training starts from.
import { randomUUID } from 'node:crypto';
import type { ModelMeta } from '../../store/models-store.js';
import { modelViews } from '../model/layout.js';
import { algorithmOf, listsParams } from './lists-choice.js';
import type { AlsParams } from './tasks.js';
import type { Trained } from './trainer.js';

export // The configured parameters with those a search chose for the database (published with its model).
function chosenParams(defaults: AlsParams, published: Record<string, number>): AlsParams {
  const or = (key: string, fallback: number) => published[key] ?? fallback;
  return {
    ...defaults,
    factors: or('factors', defaults.factors),
    regularization: or('regularization', defaults.regularization),
    alpha: or('alpha', defaults.alpha),
    unobserved: or('unobserved', defaults.unobserved),
    regExponent: or('reg_exponent', defaults.regExponent),
    ratingShift: or('rating_shift', defaults.ratingShift),
    ratingFloor: or('rating_floor', defaults.ratingFloor),
  };
}

// A retrain's model record: its sizes, metrics and parameters, the search that chose them (this run's
// or an earlier one's) and the ratings log entry its data end at.
export function retrainedMeta(trained: Trained, search: ModelMeta['search'], logLast: string): ModelMeta {
  const views = modelViews(trained.model);
  const p = trained.params;
  const chosen = search?.trials[search.chosen];
  return {
    model_id: randomUUID(),
    timestamp: Date.now() / 1000,
    algorithm: algorithmOf(trained.lists, false),
    n_users: views.dims.users,
    n_items: views.dims.items,
    n_ratings: trained.ratings,
    factors: p.factors,
    item_list: views.dims.itemList,
    user_list: views.dims.userList,
    bytes: trained.model.byteLength,
    metrics: {
      loss: trained.loss,
      training_seconds: trained.seconds,
      search_seconds: trained.searched?.summary.seconds ?? 0,
      users_with_ratings: trained.users,
      users_listed: trained.listed.users,
      lists_seconds: trained.listed.seconds,
      warm_start: trained.warm ? 1 : 0,
      ...(chosen
        && search && {
          validation_ndcg_at_10: chosen.ndcg_at_10,
          validation_recall_at_10: chosen.recall_at_10,
          popularity_ndcg_at_10: search.popularity.ndcg_at_10,
          popularity_recall_at_10: search.popularity.recall_at_10,
        }),
    },
    params: {
      factors: p.factors,
      iterations: p.iterations,
      regularization: p.regularization,
      alpha: p.alpha,
      unobserved: p.unobserved,
      reg_exponent: p.regExponent,
      rating_shift: p.ratingShift,
      rating_floor: p.ratingFloor,
      cg_steps: p.cgSteps,
      ...listsParams(trained.lists),
    },
    ...(search && { search }),
    ratings_log_id: logLast,
  };
}
