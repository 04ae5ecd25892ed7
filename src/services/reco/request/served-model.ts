// The model a recommendation is answered from: the held one at once, else read (a held model is
// always the current one: newer ones are announced and replace it).
import { unavailable } from '../../../errors/api-error.js';
import type { LoadedModel, ModelRegistry } from '../../../engine/model/registry.js';
import type { Maybe } from '../maybe.js';

export function servedModel(registry: ModelRegistry, db: string): Maybe<LoadedModel> {
  return registry.held(db) ?? registry.current(db).then(trained);
}

function trained(model: LoadedModel | undefined): LoadedModel {
  if (!model) throw unavailable('DATABASE_NOT_READY', 'no model is trained for this database yet: it trains once it holds 500 ratings');
  return model;
}
