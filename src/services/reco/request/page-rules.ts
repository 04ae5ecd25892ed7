// What shapes a request's page: its plan (the request's parameters with its scenarios applied) and
// the shape its filters and reranking make of the catalogue; and the page job of a ranking under them.
import type { Claims } from '../../../contract/claims.js';
import type { RecoType } from '../../../contract/reco-types.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { PageJob } from '../paging/pager.js';
import type { Shape } from '../paging/shaping.js';
import { pending } from '../maybe.js';
import type { RecoParts } from '../reco-parts.js';
import type { Subject } from './planner.js';
import { want, withAll, type Ranked, type RecoQuery, type Want } from './request.js';

export interface PageRules {
  w: Want;
  shape: Shape;
}

// The rules when they are at hand, else undefined (the later path reads them, sharing whatever read
// this one started). A plan that leaves out items by interaction type reads the user's interactions,
// and one that rotates the items shown to the user: neither is ever at hand.
export function rulesNow(p: RecoParts, db: string, recoType: RecoType, q: RecoQuery, who: Subject): PageRules | undefined {
  const plan = p.planner.planNow(db, recoType, q, who);
  if (plan === undefined || plan.excludeTypes.length > 0 || plan.rotation !== undefined) return undefined;
  const w = want(q, plan);
  const shape = p.shaper.shape(db, w);
  return pending(shape) ? undefined : { w, shape };
}

// A plan that rotates reads the items shown to the user before the listing's first page.
export async function pageRules(p: RecoParts, db: string, recoType: RecoType, q: RecoQuery, who: Subject): Promise<PageRules> {
  const w = want(q, await p.planner.plan(db, recoType, q, who));
  if (w.rotation !== undefined) {
    w.warnings = [...w.warnings];
    w.rotated = await p.rotation.read(db, who.user, w.rotation, q.cursor, w.warnings);
  }
  return { w, shape: await p.shaper.shape(db, w) };
}

// stopAt: PageJob's.
export function pageJob(
  auth: Claims,
  model: LoadedModel,
  { w, shape }: PageRules,
  ranked: Ranked,
  exclude: Set<number> | undefined,
  stopAt?: number,
): PageJob {
  return {
    auth,
    model,
    key: ranked.key,
    spec: ranked.spec,
    q: w,
    shape,
    exclude,
    warnings: withAll(w.warnings, ranked.warnings),
    stopAt,
    source: ranked.source,
    because: ranked.because,
  };
}
