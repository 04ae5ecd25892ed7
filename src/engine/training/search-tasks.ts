// Worker side of the parameter search (search.ts): the validation split, trial models, rating
// values as confidence, and held-out ranking metrics. Re-exported by worker.ts, the pool's module.
import { sharedCsr, transpose, type Csr } from '../../../native-free-kernels/csr.js';
import { dotAt } from '../../../native-free-kernels/dot.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { confidenceValuesTo } from '../../../native-free-kernels/als.js';
import {
  quantiles as quantilesOf,
  rankingMetricsTo,
  splitForValidation,
  validationScratch,
  type HeldOut,
} from '../../../native-free-kernels/validation.js';
import { allocateModel, modelViews, NO_ITEM } from '../model/layout.js';
import { initFactors } from './init-factors.js';
import type { ConfidenceInput, RefactorInput, SplitInput, TrialModelInput, ValidateInput, ValidationData } from './tasks.js';

export function validationSplit({ byUser, fraction, seed, maxRatings, maxUsers, quantiles }: SplitInput): ValidationData {
  const s = splitForValidation(byUser, fraction, maxRatings, maxUsers, mulberry32(seed));
  const train = sharedCsr(s.train);
  const held: HeldOut = { users: sharedCopy(s.held.users), indptr: sharedCopy(s.held.indptr), indices: sharedCopy(s.held.indices) };
  let rated = 0;
  for (let u = 0; u < train.rows; u++) if (train.indptr[u + 1]! > train.indptr[u]!) rated++;
  return {
    byUser: train,
    byItem: transpose(train, true),
    held,
    threshold: s.threshold,
    shifts: quantilesOf(train.values, quantiles),
    ratings: train.indices.length,
    rated,
  };
}

// The same matrix with its values turned into confidence (indptr and indices shared, new values).
export function confidence({ m, shift, floor, inPlace }: ConfidenceInput): Csr {
  const values = inPlace ? m.values : new Float32Array(new SharedArrayBuffer(m.values.byteLength));
  confidenceValuesTo(values, m.values, shift, floor);
  return { ...m, values };
}

// A model of only factors, for a trial: no lists, no index.
export function trialModel({ users, items, factors, seed }: TrialModelInput): SharedArrayBuffer {
  const { buffer, views } = allocateModel({ factors, users, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 });
  initFactors(views, seed);
  return buffer;
}

// The prepared model with another number of factors (the search's choice), started afresh.
export function refactor({ model, factors, seed }: RefactorInput): SharedArrayBuffer {
  const old = modelViews(model);
  const { buffer, views } = allocateModel({ ...old.dims, factors });
  views.itemLists.fill(NO_ITEM);
  views.popularity.set(old.popularity);
  views.itemCounts.set(old.itemCounts);
  initFactors(views, seed);
  return buffer;
}

// Σ NDCG@10, Σ recall@10 and the users counted, over validation users [from, to): of a trial model,
// or of popularity (training rating counts) when model is absent.
export function validate({ model, data, from, to, k }: ValidateInput): Float64Array {
  const { byUser, byItem, held } = data;
  const sums = new Float64Array(3);
  const scratch = validationScratch(byUser.cols);
  if (model === undefined) {
    const counts = Float32Array.from({ length: byItem.rows }, (_, i) => byItem.indptr[i + 1]! - byItem.indptr[i]!);
    rankingMetricsTo(sums, byUser, held, (_u, dst) => dst.set(counts), k, from, to, scratch);
    return sums;
  }
  const v = modelViews(model);
  const { factors: f, items } = v.dims;
  rankingMetricsTo(
    sums,
    byUser,
    held,
    (u, dst) => {
      for (let i = 0; i < items; i++) dst[i] = dotAt(v.userFactors, u * f, v.itemFactors, i * f, f);
    },
    k,
    from,
    to,
    scratch,
  );
  return sums;
}

function sharedCopy(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
