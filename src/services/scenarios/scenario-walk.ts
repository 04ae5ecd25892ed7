// How a recommendation request's rules are decided (spec, scenario rules 1–6): the runtime
// scenario and the default scenario of the reco type are each walked from their name through
// alias, condition and ab_test scenarios down to a case; then runtime parameters, the runtime
// case and the default case are merged in that order of priority.
// The walk is synchronous whenever the facts it asks for are at hand, so warm requests answer in
// the same tick; a fact that must be read makes the rest of the walk wait for it.
import { notFound } from '../../errors/api-error.js';
import { scenarioKey, type ScenarioRecord, type ScenarioSet } from '../../store/scenarios-store.js';
import type { FilterObject } from '../catalogue/filters.js';
import type { RerankingObject } from '../reco/paging/reranking.js';
import type { RecoType } from '../../contract/reco-types.js';

export type Rule<T> = string | T;

// A database's scenarios as recommendation requests read them; held per process until a change.
export type ScenarioGraph = Pick<ScenarioSet, 'scenarios' | 'defaults' | 'abTests'>;

export interface CaseRules {
  filters?: Rule<FilterObject>[] | null;
  reranking?: Rule<RerankingObject>[] | null;
  exclude_rated_items?: boolean | null;
  amt?: number | null;
  table?: string | null;
  exclude_items_with_interaction_types?: string[] | null;
  rotation_rate?: number | null;
  rotation_hours?: number | null;
}

// What a walk asks about the request. Each may answer later (a Promise) when it must be read.
export interface Facts {
  // The user an A/B test assigns (canonical id); undefined: nobody, group A.
  abUser(): string | undefined;
  // The number of ratings of the request's user or session.
  nRatings(): number | Promise<number>;
  // Whether the query item passes a filter; false where the request has no query item.
  itemHolds(filter: FilterObject): boolean | Promise<boolean>;
}

// The group an A/B test put the request in.
export interface AbArm {
  test: string;
  arm: 'A' | 'B';
}

export interface Walked {
  path: string[]; // the scenario names walked, the case last
  arms: AbArm[]; // the A/B tests on the walk, in its order
  rules: CaseRules;
}

// What the request's own parameters say; undefined: not given.
export interface Runtime {
  scenario?: string;
  skipDefault?: boolean;
  amt?: number;
  filters?: Rule<FilterObject>[];
  reranking?: Rule<RerankingObject>[];
  excludeRated?: boolean;
  table?: string;
  rotationRate?: number;
  rotationHours?: number;
}

export interface Plan {
  amt: number | undefined; // undefined: nothing sets it
  filters: Rule<FilterObject>[];
  reranking: Rule<RerankingObject>[];
  excludeRated: boolean;
  table: string | undefined;
  excludeTypes: string[]; // interaction types whose items the user interacted with are left out
  evaluated: string[]; // the runtime scenario's walk, then the default's
  arms: AbArm[]; // the A/B tests of both walks
  rotation: Rotation | undefined; // undefined: off (no rate, or 0)
  warnings: string[];
}

// Items shown to the user within `hours` are pushed down by `rate` (services/outcomes/rotation.ts).
export interface Rotation {
  rate: number;
  hours: number | undefined; // undefined: the default
}

const NUMERIC_OPS: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
};
export const N_RATINGS_OPS = Object.keys(NUMERIC_OPS);
// Shared by the plans of requests that meet no A/B test (most): never written to.
const NO_ARMS: AbArm[] = [];

// Walks from `name` to a case. Names are checked on every step: the graph may have changed since
// the request's scenario was looked up.
export function walk(set: ScenarioGraph, recoType: RecoType, name: string, facts: Facts): Walked | Promise<Walked> {
  const path: string[] = [];
  const arms: AbArm[] = [];
  const from = (start: string): Walked | Promise<Walked> => {
    for (let at = start; ; ) {
      const r = set.scenarios.get(scenarioKey(recoType, at));
      if (!r) throw notFound('SCENARIO_NOT_FOUND', 'scenario', at, `no ${recoType} scenario ${JSON.stringify(at)}`);
      path.push(at);
      // The graph is kept acyclic on write; this bounds a walk over a graph written some other way.
      if (path.length > set.scenarios.size)
        throw notFound('SCENARIO_NOT_FOUND', 'scenario', at, `scenario ${JSON.stringify(name)} does not lead to a case`);
      const next = step(set, r, facts, arms);
      if (next === undefined) return { path, arms, rules: (r.scenario.case ?? {}) as CaseRules };
      if (typeof next !== 'string') return next.then(from);
      at = next;
    }
  };
  return from(name);
}

// The scenario a non-case scenario continues with; undefined for a case. An A/B test adds its arm to arms.
function step(set: ScenarioGraph, r: ScenarioRecord, facts: Facts, arms: AbArm[]): string | Promise<string> | undefined {
  const s = r.scenario as {
    scenario_type: string;
    alias?: { scenario_name: string };
    ab_test?: { id: string; scenario_a: string; scenario_b: string };
    condition?: { condition_type: string; if: Record<string, unknown>; then: string; else: string };
  };
  switch (s.scenario_type) {
    case 'alias':
      return s.alias!.scenario_name;
    case 'ab_test': {
      const t = s.ab_test!;
      const user = facts.abUser();
      const test = set.abTests.get(t.id);
      const b = user !== undefined && test !== undefined && !inGroupA(t.id, user, test.probability_a);
      arms.push({ test: t.id, arm: b ? 'B' : 'A' });
      return b ? t.scenario_b : t.scenario_a;
    }
    case 'condition': {
      const c = s.condition!;
      const choose = (yes: boolean) => (yes ? c.then : c.else);
      if (c.condition_type === 'item_property') {
        const held = facts.itemHolds(c.if as unknown as FilterObject);
        return typeof held === 'boolean' ? choose(held) : held.then(choose);
      }
      const test = (n: number) => choose(NUMERIC_OPS[String(c.if.op).toLowerCase()]?.(n, Number(c.if.value)) ?? false);
      const n = facts.nRatings();
      return typeof n === 'number' ? test(n) : n.then(test);
    }
    default:
      return undefined;
  }
}

// Group A with probability `probabilityA`, decided by the test and the user alone, so a user stays
// in one group across requests, endpoints and processes.
export function inGroupA(testId: string, user: string, probabilityA: number): boolean {
  return unitHash(`${testId}\u0000${user}`) < probabilityA;
}

// FNV-1a over UTF-16 code units, finished with murmur3's avalanche: uniform in [0, 1).
function unitHash(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) {
    h ^= s.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

// Runtime parameters, then the runtime case, then the default case: lists concatenated in that
// order, single values from the first that sets them (a case's amt 0 sets nothing).
export function merge(rt: Runtime, own: Walked | undefined, fallback: Walked | undefined): Plan {
  const cases = [own?.rules, fallback?.rules].filter((c): c is CaseRules => c !== undefined);
  const firstSet = <T>(given: T | undefined, pick: (c: CaseRules) => T | null | undefined): T | undefined => {
    if (given !== undefined) return given;
    for (const c of cases) {
      const v = pick(c);
      if (v !== undefined && v !== null) return v;
    }
    return undefined;
  };
  const listed = <T>(given: T[] | undefined, pick: (c: CaseRules) => T[] | null | undefined): T[] => {
    const parts = [given ?? [], ...cases.map((c) => pick(c) ?? [])].filter((p) => p.length > 0);
    return parts.length === 1 ? parts[0]! : parts.flat();
  };
  return {
    amt: firstSet(rt.amt, (c) => (c.amt ? c.amt : undefined)),
    filters: listed(rt.filters, (c) => c.filters),
    reranking: listed(rt.reranking, (c) => c.reranking),
    excludeRated: firstSet(rt.excludeRated, (c) => c.exclude_rated_items) ?? false,
    table: firstSet(rt.table || undefined, (c) => c.table || undefined),
    excludeTypes: [...new Set(cases.flatMap((c) => c.exclude_items_with_interaction_types ?? []))],
    evaluated: [...(own?.path ?? []), ...(fallback?.path ?? [])],
    arms: own?.arms.length || fallback?.arms.length ? [...(own?.arms ?? []), ...(fallback?.arms ?? [])] : NO_ARMS,
    rotation: rotationOf(
      firstSet(rt.rotationRate, (c) => c.rotation_rate),
      firstSet(rt.rotationHours, (c) => c.rotation_hours),
    ),
    warnings: [],
  };
}

function rotationOf(rate: number | undefined, hours: number | undefined): Rotation | undefined {
  return rate === undefined || rate <= 0 ? undefined : { rate, hours };
}

// The plan of a request: the runtime scenario walked, then the default unless skipped or already
// walked (it is the runtime scenario, or a scenario on its walk).
export function planOf(set: ScenarioGraph, recoType: RecoType, rt: Runtime, facts: Facts): Plan | Promise<Plan> {
  const fallbackName = rt.skipDefault ? undefined : set.defaults.get(recoType);
  const own = rt.scenario === undefined ? undefined : walk(set, recoType, rt.scenario, facts);
  const finish = (o: Walked | undefined): Plan | Promise<Plan> => {
    if (fallbackName === undefined || o?.path.includes(fallbackName)) return merge(rt, o, undefined);
    // A default that ends in the runtime scenario's own case adds nothing but its walk.
    const dedupe = (d: Walked) => (o && d.rules === o.rules ? { path: d.path, arms: d.arms, rules: {} } : d);
    const f = walk(set, recoType, fallbackName, facts);
    return f instanceof Promise ? f.then((d) => merge(rt, o, dedupe(d))) : merge(rt, o, dedupe(f));
  };
  return own instanceof Promise ? own.then(finish) : finish(own);
}
