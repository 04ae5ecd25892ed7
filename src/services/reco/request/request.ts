// What a recommendation request asks for, what it runs with once its scenarios apply, and what it
// answers: the types and small helpers every recommendation module shares.
import type { Claims } from '../../../contract/claims.js';
import type { RankSpec } from '../../../engine/scoring/rankings.js';
import type { LoadedModel } from '../../../engine/model/registry.js';
import type { IdValue } from '../../ids/id-types.js';
import { pathOwner } from '../../ids/request-ids.js';
import type { Plan, Runtime } from '../../scenarios/scenario-walk.js';
import type { RankingKey } from '../../../engine/scoring/scorer.js';
import type { RecoType } from '../../../contract/reco-types.js';
import type { TableKind } from '../../../store/tables-store.js';
import type { Rotated } from '../../outcomes/rotation.js';
import type { Source } from '../../../contract/sources.js';

// What a request asks for (its runtime parameters), undefined where it says nothing.
export interface RecoQuery extends Runtime {
  cursor?: string;
  userId?: unknown; // selects the A/B group and what scenarios ask about the user; never personalises
  explain?: boolean; // answer with evaluated_scenarios
  reasons?: boolean; // answer with explanations (explain=true)
}

// The requests, as their routes give them: the route row's reco type, the request's parameters, and
// whom or what it is about, as the path or body names it.
interface Asked {
  auth: Claims;
  db: string;
  recoType: RecoType;
  q: RecoQuery;
}
export interface ItemRequest extends Asked {
  item: string;
}
export interface UserRequest extends Asked {
  user: string;
  context: unknown[] | undefined; // context items to steer towards (and leave out)
}
export interface SessionRequest extends Asked {
  session: SessionInput;
  context: unknown[] | undefined;
}
export interface TableRequest extends Asked {
  table: TableKind;
  id: string; // the item's or the user's
}

// What a request runs with once its scenarios are applied; rotated: what its rotation pushes down.
export type Want = Plan & { amt: number; cursor?: string; explain?: boolean; reasons?: boolean; rotated?: Rotated };
const DEFAULT_AMT = 10;

export interface SessionInput {
  ratings?: unknown[];
  interactions?: unknown[];
  user_properties?: Record<string, unknown>;
}

export type RecoAnswer = {
  items_id: IdValue[];
  next_cursor: string;
  warnings: string[];
  evaluated_scenarios?: string[];
  explanations?: Explanation[];
  [SHOWN]?: Shown;
};

// What an answer showed, for its impression (services/outcomes/): kept under a symbol, which no
// encoder writes, on the answer the pager makes.
export const SHOWN = Symbol('shown');
export interface Shown {
  model: LoadedModel;
  rows: number[]; // the model's item rows, in the answer's order
  from: number; // the position of the first in the whole ranking (0: first page)
  plan: Want;
}

// The ranking a profile (or anything else) asks for: key names it in the ranking cache (undefined:
// not cached); context: the context items it was steered towards (which are left out).
export interface Ranked {
  key: RankingKey | undefined;
  spec: RankSpec;
  warnings: string[];
  context: number[];
  source?: Source; // where it comes from, when its spec does not say (paging/explanations.ts)
  because?: Because; // the profile it was made from
}

export const NO_RATINGS = 'no ratings to personalise with: most popular items';
export const POPULAR: RankSpec = { kind: 'popular' };

// The request's cursor and explain flag with its plan.
// Spelled out rather than spread: every request makes one, and a spread copy measured as the
// request path's costliest single step.
export function want(q: RecoQuery, plan: Plan): Want {
  return {
    amt: plan.amt ?? DEFAULT_AMT,
    filters: plan.filters,
    reranking: plan.reranking,
    excludeRated: plan.excludeRated,
    table: plan.table,
    excludeTypes: plan.excludeTypes,
    evaluated: plan.evaluated,
    arms: plan.arms,
    rotation: plan.rotation,
    warnings: plan.warnings,
    cursor: q.cursor,
    explain: q.explain,
    reasons: q.reasons,
  };
}

// Warnings of several sources, sharing the first list when the others are empty.
export function withAll(...lists: string[][]): string[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  return nonEmpty.length <= 1 ? (nonEmpty[0] ?? []) : nonEmpty.flat();
}

// The user a request names in user_id (a frontend token's own user only).
export function requestUser(auth: Claims, q: RecoQuery): string | undefined {
  const raw = q.userId;
  if (raw === undefined || raw === null || raw === '') return undefined;
  return pathOwner(auth, 'user', typeof raw === 'string' ? raw : String(raw), false).key;
}

// The profile a ranking came from: its items (model rows) and their values.
export interface Because {
  rows: number[];
  values: number[];
}

// Why an item of an answer is there (paging/explanations.ts).
export interface Explanation {
  item_id: IdValue;
  source: Source;
  score: number | null;
  because: IdValue[];
  rules: string[];
}
