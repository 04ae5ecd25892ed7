// The items a page leaves out: what the subject rated (when the plan says so), the context items,
// and what the subject interacted with in the plan's interaction types.
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { Profile } from '../../feedback/profile-cache.js';
import type { Maybe } from '../maybe.js';
import type { RecoPlanner, Subject } from './planner.js';
import type { Plan } from '../../scenarios/scenario-walk.js';
import type { Want } from './request.js';

export function excluded(q: Want, p: Profile, context: number[]): Set<number> | undefined {
  if (context.length === 0 && !q.excludeRated) return undefined;
  if (context.length === 0) return (p.rated ??= new Set(p.items)); // kept with a cached profile: the pass memo is kept with it
  return new Set([...context, ...(q.excludeRated ? p.items : [])]);
}

// `base` and the items the subject interacted with in the plan's interaction types; at once when
// the plan names none.
export function interacted(
  planner: RecoPlanner,
  db: string,
  model: LoadedModel,
  plan: Plan,
  who: Subject,
  base: Set<number> | undefined,
): Maybe<Set<number> | undefined> {
  if (plan.excludeTypes.length === 0) return base;
  return planner.interacted(db, plan, who).then((keys) => {
    if (!keys || keys.size === 0) return base;
    const out = new Set(base);
    for (const k of keys) {
      const i = model.itemIndex.get(k);
      if (i !== undefined) out.add(i);
    }
    return out;
  });
}
