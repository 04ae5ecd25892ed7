// The rules a recommendation request runs with: its own parameters, its runtime scenario and the
// default scenario of its reco type (scenarios/scenario-walk.ts), with the facts the scenarios ask about
// read from what this process holds — the database's scenarios, item and user definitions and
// views — so a warm request plans in the same tick. Facts it must read (a user's rating count, a
// cold view) make the plan a Promise.
import { notFound } from '../../../errors/api-error.js';
import type { InteractionsStore } from '../../../store/interactions-store.js';
import type { RatingsStore } from '../../../store/ratings-store.js';
import type { Catalogues, Defs } from '../../catalogue/catalogues.js';
import type { CatalogueView } from '../../catalogue/catalogue-view.js';
import { compileFilters, RECO_OPS, type FilterObject, type Predicate } from '../../catalogue/filters.js';
import { merge, planOf, type Facts, type Plan, type Runtime, type ScenarioGraph } from '../../scenarios/scenario-walk.js';
import type { ScenarioService } from '../../scenarios/scenarios.js';
import { pending, type Maybe } from '../maybe.js';
import { listKey } from './rule-lists.js';
import type { RecoType } from '../../../contract/reco-types.js';

// Who and what a request is about, as far as scenarios ask.
export interface Subject {
  user?: string; // canonical user id: the path's user, else the request's user_id
  nRatings?: () => number | Promise<number>; // when the caller knows it (sessions, held profiles)
  item?: number; // the query item's index
  properties?: Record<string, unknown>; // a session's user properties (before the stored ones)
  interactions?: { item: string; type: string }[]; // a session's interactions
}

// A user's interactions read to leave out items by type: the most recent this many.
const INTERACTIONS_READ = 10_000;
// A fact planNow leaves unread: a promise that never settles, so the walk's plan is a promise too.
// A new one each time: what the walk chains to it is dropped with it.
const notRead = () => new Promise<never>(() => {});
// Plans kept per scenario set: past this many (requests with ever new filters) they are dropped
// and made again as asked.
const MEMO_PLANS = 1000;

export class RecoPlanner {
  // Conditions compiled once per condition object (held with its scenario set) and definitions.
  private readonly conditions = new WeakMap<object, { defs: Defs; test: Predicate }>();
  // Plans of requests whose walks asked nothing about the request, by what the request sets
  // (memoKeyOf): the same for every such request while the scenario set is held.
  private readonly plans = new WeakMap<ScenarioGraph, Map<string, Plan>>();

  constructor(
    private readonly scenarios: Pick<ScenarioService, 'held' | 'read'>,
    private readonly catalogues: Catalogues,
    private readonly ratings: Pick<RatingsStore, 'count'>,
    private readonly interactions: Pick<InteractionsStore, 'own'>,
  ) {}

  plan(db: string, recoType: RecoType, rt: Runtime, who: Subject): Maybe<Plan> {
    const set = this.scenarios.held(db);
    if (!set) return this.scenarios.read(db).then((s) => this.planWith(db, s, recoType, rt, who, false));
    return this.planWith(db, set, recoType, rt, who, false);
  }

  // The plan when it is at hand, else undefined. It starts no read that `plan` would not share when
  // asked next (the scenarios and catalogue reads are shared; a user's rating count is not read).
  planNow(db: string, recoType: RecoType, rt: Runtime, who: Subject): Plan | undefined {
    const set = this.scenarios.held(db);
    if (!set) return undefined;
    const plan = this.planWith(db, set, recoType, rt, who, true);
    return pending(plan) ? undefined : plan;
  }

  // The model rows to leave out for the plan's interaction types (none: undefined).
  async interacted(db: string, plan: Plan, who: Subject): Promise<Set<string> | undefined> {
    if (plan.excludeTypes.length === 0) return undefined;
    const types = new Set(plan.excludeTypes.map((t) => t.toLowerCase()));
    const rows = who.interactions ?? (who.user === undefined ? [] : await this.recentInteractions(db, who.user));
    return new Set(rows.filter((r) => types.has(r.type.toLowerCase())).map((r) => r.item));
  }

  private async recentInteractions(db: string, user: string) {
    return (await this.interactions.own(db, 'user', user, 0, INTERACTIONS_READ)).list;
  }

  // now: what must be read is left unread (planNow).
  private planWith(db: string, set: ScenarioGraph, recoType: RecoType, rt: Runtime, who: Subject, now: boolean): Maybe<Plan> {
    const memoKey = memoKeyOf(recoType, rt);
    const memo = this.plans.get(set)?.get(memoKey);
    if (memo) return memo;
    let asked = false;
    const plan =
      rt.scenario === undefined && (rt.skipDefault || !set.defaults.has(recoType))
        ? merge(rt, undefined, undefined)
        : planOf(
            set,
            recoType,
            rt,
            this.facts(db, who, () => (asked = true), now),
          );
    if (plan instanceof Promise) return plan.then((p) => this.withUserValues(db, p, who));
    const applied = this.withUserValues(db, plan, who);
    if (!asked && !(applied instanceof Promise) && !plan.filters.some(isUserFilter)) {
      let held = this.plans.get(set);
      if (!held) this.plans.set(set, (held = new Map()));
      if (held.size >= MEMO_PLANS) held.clear();
      held.set(memoKey, applied);
    }
    return applied;
  }

  // asked: told whenever the walk reads something about the request. now: a rating count that must
  // be read is left unread (notRead).
  private facts(db: string, who: Subject, asked: () => void, now: boolean): Facts {
    return {
      abUser: () => (asked(), who.user),
      nRatings: () => (asked(), who.nRatings?.() ?? (who.user === undefined ? 0 : now ? notRead() : this.ratings.count(db, who.user))),
      itemHolds: (filter) => {
        asked();
        const at = who.item;
        if (at === undefined) return false;
        const cat = this.catalogues.get(db);
        const defs = cat.cachedDefinitions('item'),
          view = cat.readyView('item');
        if (defs && view) return this.holds(filter, defs, view, at);
        return Promise.all([cat.definitions('item'), cat.view('item')]).then(([d, v]) => this.holds(filter, d ?? new Map(), v, at));
      },
    };
  }

  private holds(filter: FilterObject, defs: Defs, view: CatalogueView, at: number): boolean {
    let c = this.conditions.get(filter);
    if (!c || c.defs !== defs) this.conditions.set(filter, (c = { defs, test: compileFilters([filter], defs, RECO_OPS) }));
    return c.test(view.at(at));
  }

  // Filters whose value names a user property take the request's user's value of it: the session's
  // own user properties first, then the stored user's. Without a value the filter is left out (and
  // the answer says so).
  private withUserValues(db: string, plan: Plan, who: Subject): Maybe<Plan> {
    const named = plan.filters.some(isUserFilter);
    if (!named) return plan;
    const cat = this.catalogues.get(db);
    const defs = cat.cachedDefinitions('user'),
      view = cat.readyView('user');
    if (defs && view) return this.substituted(plan, who, defs, view);
    return Promise.all([cat.definitions('user'), cat.view('user')]).then(([d, v]) => this.substituted(plan, who, d ?? new Map(), v));
  }

  private substituted(plan: Plan, who: Subject, defs: Defs, view: CatalogueView): Plan {
    const warnings = [...plan.warnings];
    const stored = who.user === undefined ? undefined : view.indexOf(who.user);
    const filters: Plan['filters'] = [];
    for (const f of plan.filters) {
      if (typeof f === 'string' || !isUserRef(f.value)) {
        filters.push(f);
        continue;
      }
      const name = f.value.value;
      const def = defs.get(name.toLowerCase());
      if (!def) throw notFound('USER_PROPERTY_NOT_FOUND', 'property', name);
      const own = who.properties && Object.entries(who.properties).find(([k]) => k.toLowerCase() === def.property_name.toLowerCase());
      const value = own ? own[1] : stored === undefined ? undefined : view.at(stored).get(def.seq);
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
        warnings.push(
          `filter on ${f.property_name} left out: ${who.user === undefined && !who.properties ? 'no user given' : 'the user has no value'} for user property ${def.property_name}`,
        );
        continue;
      }
      // A repeated user property compares as `in` its values (`notin` for neq).
      const op = f.op.toLowerCase();
      if (Array.isArray(value))
        filters.push({ property_name: f.property_name, op: op === 'neq' || op === 'notin' ? 'notin' : 'in', value });
      else filters.push({ property_name: f.property_name, op: f.op, value });
    }
    return { ...plan, filters, warnings };
  }
}

// The key of a plan that only the request's reco type and runtime parameters decide: its rule lists
// by their text, so that requests repeating the same filters (shared lists, rule-lists.ts) plan once.
// Names are JSON-quoted: they may hold spaces.
function memoKeyOf(recoType: RecoType, rt: Runtime): string {
  const excluded = rt.excludeRated === undefined ? '' : rt.excludeRated ? 1 : 0;
  const base = `${recoType} ${rt.scenario === undefined ? '' : JSON.stringify(rt.scenario)} ${rt.skipDefault ? 1 : 0} ${rt.amt ?? ''} ${excluded} ${rt.table === undefined ? '' : JSON.stringify(rt.table)} ${rt.rotationRate ?? ''} ${rt.rotationHours ?? ''}`;
  if (rt.filters === undefined && rt.reranking === undefined) return base;
  return `${base} ${listKey(rt.filters ?? [])} ${listKey(rt.reranking ?? [])}`;
}

const isUserFilter = (f: Plan['filters'][number]) => typeof f === 'object' && isUserRef(f.value);

function isUserRef(v: unknown): v is { type: 'user_property'; value: string } {
  return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'user_property';
}
