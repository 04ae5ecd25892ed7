// What users' lists come from when the search chose another model than ALS, and how a model's
// metadata records it: `algorithm` says the model (`ease+als`, `item-knn+als`, `popularity+als`) and
// `params` its parameters, so retrains between searches reuse the choice.
import type { ModelMeta } from '../../store/models-store.js';
import type { ItemWeightsChoice } from './item-weights.js';

export type ListsChoice = ItemWeightsChoice | { model: 'popularity' };

export function listsParams(c: ListsChoice | undefined): Record<string, number> {
  switch (c?.model) {
    case undefined:
    case 'popularity':
      return {};
    case 'ease':
      return {
        ease_lambda_scale: c.lambdaScale,
        ease_weight_cut: c.cut,
        ease_weight_below: c.below,
        ease_weight_by_quantile: c.byQuantile ? 1 : 0,
        ease_als_weight: c.alsWeight,
        ease_items: c.items,
      };
    case 'item-knn':
      return {
        knn_neighbours: c.neighbours,
        knn_weight_cut: c.cut,
        knn_weight_below: c.below,
        knn_weight_by_quantile: c.byQuantile ? 1 : 0,
        knn_als_weight: c.alsWeight,
        knn_items: c.items,
      };
  }
}

export function algorithmOf(c: ListsChoice | undefined, newItems: boolean): ModelMeta['algorithm'] {
  const lists = c === undefined ? '' : `${c.model}+`;
  return (newItems ? `${lists}als+new-items` : `${lists}als`) as ModelMeta['algorithm'];
}

// The choice a published model records (undefined: its lists come from ALS).
export function publishedLists(meta: Pick<ModelMeta, 'algorithm' | 'params'>): ListsChoice | undefined {
  const p = meta.params;
  const model = meta.algorithm.split('+')[0];
  const need = (...keys: string[]) => (keys.every((k) => typeof p[k] === 'number') ? keys.map((k) => p[k]!) : undefined);
  if (model === 'popularity') return { model: 'popularity' };
  if (model === 'ease') {
    const v = need('ease_lambda_scale', 'ease_weight_cut', 'ease_weight_below', 'ease_items', 'ease_weight_by_quantile');
    return (
      v && {
        model: 'ease',
        lambdaScale: v[0]!,
        cut: v[1]!,
        below: v[2]!,
        items: v[3]!,
        byQuantile: v[4] === 1,
        alsWeight: p.ease_als_weight ?? 0,
      }
    );
  }
  if (model === 'item-knn') {
    const v = need('knn_neighbours', 'knn_weight_cut', 'knn_weight_below', 'knn_items', 'knn_weight_by_quantile');
    return (
      v && {
        model: 'item-knn',
        neighbours: v[0]!,
        cut: v[1]!,
        below: v[2]!,
        items: v[3]!,
        byQuantile: v[4] === 1,
        alsWeight: p.knn_als_weight ?? 0,
      }
    );
  }
  return undefined;
}
