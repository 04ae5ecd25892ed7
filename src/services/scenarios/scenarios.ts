// Scenarios: named business rules per recommendation type (case), and the graph that picks one at
// run time (condition, alias, ab_test). The graph is kept a DAG whose leaves are cases: every
// reference names a scenario of the same reco_type, and no change may close a cycle.
import { randomUUID } from 'node:crypto';
import { notFound, wrongData } from '../../errors/api-error.js';
import { scenarioKey, type ScenarioRecord, type ScenarioSet, type ScenariosStore } from '../../store/scenarios-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';
import { N_RATINGS_OPS } from './scenario-walk.js';
import type { RecoType } from '../../contract/reco-types.js';

export const SCENARIO_TYPES = ['case', 'condition', 'alias', 'ab_test'] as const;
export type ScenarioType = (typeof SCENARIO_TYPES)[number];
export const CONDITION_TYPES = ['user_function', 'item_property'] as const;
// Only this user function is implemented (spec, scenario rule 4).
const USER_FUNCTIONS = ['n_ratings'];
// Concurrent changes: how many times a write is checked again against what landed meanwhile.
const ATTEMPTS = 8;
// Where a case may name a precomputed table to read.
const TABLE_TYPES: readonly RecoType[] = ['precomputed_item_to_items', 'precomputed_profile_to_items'];
const SETTING = 'scenarios'; // the catalogue setting that holds them per process

export interface ScenarioBody {
  scenario_type: string;
  metadata?: Record<string, unknown> | null;
  case?: Record<string, unknown> | null;
  condition?: { condition_type: string; if: Record<string, unknown>; then: string; else: string } | null;
  alias?: { scenario_name: string } | null;
  ab_test?: { id: string; scenario_a: string; scenario_b: string } | null;
}

export class ScenarioService {
  constructor(
    private readonly store: ScenariosStore,
    private readonly catalogues: Catalogues,
  ) {}

  // What recommendation requests read: held per process (synchronous once held), dropped on every
  // change by any process (the write appends a change to the database's change stream).
  held(db: string): ScenarioSet | undefined {
    return this.catalogues.get(db).cachedSetting<ScenarioSet>(SETTING);
  }

  read(db: string): Promise<ScenarioSet> {
    return this.catalogues.get(db).setting<ScenarioSet>(SETTING, () => this.store.read(db));
  }

  async get(db: string, recoType: RecoType, name: string) {
    const record = (await this.store.read(db)).scenarios.get(scenarioKey(recoType, name));
    if (!record) throw notFound('SCENARIO_NOT_FOUND', 'scenario', name);
    return { ...record, warnings: [] as string[] };
  }

  async list(db: string) {
    const set = await this.store.read(db);
    const scenarios = [...set.scenarios.values()].sort((a, b) => a.reco_type.localeCompare(b.reco_type) || a.name.localeCompare(b.name));
    return { scenarios, warnings: [] as string[] };
  }

  async put(db: string, recoType: RecoType, name: string, body: ScenarioBody) {
    const type = body.scenario_type as ScenarioType;
    const scenario: Record<string, unknown> = { scenario_type: type, metadata: body.metadata ?? {} };
    for (const t of SCENARIO_TYPES) {
      const given = body[t];
      if (t !== type && given !== undefined && given !== null)
        throw wrongData('WRONG_DATA_TYPE', `only ${type} may be set for a scenario of type ${type}, not ${t}`, { field: t });
      scenario[t] = t === type ? (given ?? null) : null;
    }
    if (scenario[type] === null) throw wrongData('WRONG_DATA_TYPE', `a scenario of type ${type} needs its ${type} object`, { field: type });
    if (type === 'condition') {
      const c = body.condition!;
      const conditionType = c.condition_type.toLowerCase();
      if (!(CONDITION_TYPES as readonly string[]).includes(conditionType))
        throw wrongData('WRONG_PARAMETER', `condition_type must be one of ${CONDITION_TYPES.join(', ')}`, {
          field: 'condition.condition_type',
        });
      if (conditionType === 'user_function' && !USER_FUNCTIONS.includes(String(c.if.function_name))) {
        throw wrongData('WRONG_PARAMETER', `user functions implemented: ${USER_FUNCTIONS.join(', ')}`, {
          field: 'condition.if.function_name',
        });
      }
      if (conditionType === 'item_property' && typeof c.if.property_name !== 'string')
        throw wrongData('WRONG_PARAMETER', 'an item_property condition names its property_name', { field: 'condition.if.property_name' });
      if (conditionType === 'user_function' && (!N_RATINGS_OPS.includes(String(c.if.op).toLowerCase()) || typeof c.if.value !== 'number')) {
        throw wrongData('WRONG_PARAMETER', `an n_ratings condition compares with op (${N_RATINGS_OPS.join(', ')}) to a number value`, {
          field: 'condition.if',
        });
      }
      if (conditionType === 'item_property' && typeof c.if.op !== 'string')
        throw wrongData('WRONG_PARAMETER', 'an item_property condition names its op', { field: 'condition.if.op' });
      scenario.condition = { ...c, condition_type: conditionType };
    }
    if (type === 'case') checkCase(recoType, body.case!);
    if (type === 'ab_test' && !(await this.store.abTest(db, body.ab_test!.id))) {
      throw wrongData('WRONG_PARAMETER', `no A/B test ${JSON.stringify(body.ab_test!.id)}: create it with POST ab-tests/params/`, {
        field: 'ab_test.id',
      });
    }
    const record: ScenarioRecord = { name, reco_type: recoType, scenario };
    await this.retry(db, async (set) => {
      const existing = set.scenarios.get(scenarioKey(recoType, name));
      if (existing?.scenario.scenario_type === 'ab_test')
        throw wrongData(
          'WRONG_PARAMETER',
          `scenario ${name} is an ab_test scenario, which cannot be updated: delete it and create it again`,
          { field: 'name' },
        );
      for (const ref of references(record)) {
        if (!set.scenarios.has(scenarioKey(recoType, ref)) && ref !== name) {
          throw wrongData('WRONG_PARAMETER', `scenario ${name} refers to ${JSON.stringify(ref)}, which is not a ${recoType} scenario`, {
            field: 'scenario',
          });
        }
      }
      const next = new Map(set.scenarios).set(scenarioKey(recoType, name), record);
      const cycle = cycleThrough(next, recoType, name);
      if (cycle) throw wrongData('WRONG_PARAMETER', `scenario references would form a cycle: ${cycle.join(' → ')}`, { field: 'scenario' });
      return this.store.put(db, set.version, record);
    });
    return { warnings: [] as string[] };
  }

  async remove(db: string, recoType: RecoType, name: string): Promise<void> {
    await this.retry(db, async (set) => {
      const key = scenarioKey(recoType, name);
      if (!set.scenarios.has(key)) throw notFound('SCENARIO_NOT_FOUND', 'scenario', name);
      const users = [...set.scenarios.values()]
        .filter((r) => r.reco_type === recoType && r.name !== name && references(r).includes(name))
        .map((r) => r.name);
      if (users.length > 0)
        throw wrongData('SCENARIO_IN_USE', `scenario ${name} is referred to by ${users.join(', ')}: change those first`, { field: 'name' });
      if (set.defaults.get(recoType) === name)
        throw wrongData(
          'SCENARIO_IN_USE',
          `scenario ${name} is the default for ${recoType}: unset it first (DELETE scenarios-default/${recoType}/)`,
          { field: 'name' },
        );
      return this.store.write(db, set.version, 'del', key);
    });
  }

  async defaultOf(db: string, recoType: RecoType) {
    const name = (await this.store.read(db)).defaults.get(recoType);
    if (name === undefined) throw notFound('SCENARIO_NOT_FOUND', 'scenario', null, `no default scenario for ${recoType}`);
    return { name, warnings: [] as string[] };
  }

  async setDefault(db: string, recoType: RecoType, name: string): Promise<void> {
    await this.retry(db, async (set) => {
      if (!set.scenarios.has(scenarioKey(recoType, name))) throw notFound('SCENARIO_NOT_FOUND', 'scenario', name);
      return this.store.write(db, set.version, 'default', recoType, name);
    });
  }

  async unsetDefault(db: string, recoType: RecoType): Promise<void> {
    await this.retry(db, (set) => this.store.write(db, set.version, 'undefault', recoType));
  }

  async createAbTest(db: string, name: string, probabilityA: number) {
    const id = randomUUID();
    await this.store.putAbTest(db, id, { name, probability_a: probabilityA });
    return { id, warnings: [] as string[] };
  }

  // Item properties the scenarios of a database use (filters, reranking, item_property conditions).
  async usesItemProperty(db: string, property: string): Promise<boolean> {
    const wanted = property.toLowerCase();
    return [...(await this.store.read(db)).scenarios.values()].some((r) => itemPropertiesOf(r).has(wanted));
  }

  // Returns once this process's recommendations see the change.
  private async retry(db: string, attempt: (set: ScenarioSet) => Promise<string | undefined>): Promise<void> {
    for (let k = 0; k < ATTEMPTS; k++) {
      const change = await attempt(await this.store.read(db));
      if (change !== undefined) return this.catalogues.reached(db, change);
    }
    throw new Error(`scenarios of ${db}: ${ATTEMPTS} concurrent changes in a row`);
  }
}

// What a case may hold beyond its schema: a table only where tables are read, user_property
// filter values naming a property.
function checkCase(recoType: RecoType, c: Record<string, unknown>): void {
  if (typeof c.table === 'string' && c.table !== '' && !TABLE_TYPES.includes(recoType)) {
    throw wrongData('WRONG_PARAMETER', `case.table applies to ${TABLE_TYPES.join(' and ')} scenarios only`, { field: 'case.table' });
  }
  for (const [k, f] of ((c.filters as unknown[] | null | undefined) ?? []).entries()) {
    const v = typeof f === 'object' && f !== null ? (f as { value?: unknown }).value : undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const ref = v as { type?: unknown; value?: unknown };
    if (ref.type !== 'user_property' || typeof ref.value !== 'string' || ref.value === '') {
      throw wrongData('WRONG_DATA_TYPE', 'an object filter value must be {"type": "user_property", "value": <user property name>}', {
        field: `case.filters[${k}].value`,
      });
    }
  }
}

// The scenario names a record refers to.
export function references(r: ScenarioRecord): string[] {
  const s = r.scenario as Omit<ScenarioBody, 'scenario_type'> & { scenario_type: ScenarioType };
  switch (s.scenario_type) {
    case 'condition':
      return [s.condition!.then, s.condition!.else];
    case 'alias':
      return [s.alias!.scenario_name];
    case 'ab_test':
      return [s.ab_test!.scenario_a, s.ab_test!.scenario_b];
    default:
      return [];
  }
}

// A path from `name` back to itself through references (within one reco_type), if there is one.
function cycleThrough(all: Map<string, ScenarioRecord>, recoType: RecoType, name: string): string[] | undefined {
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (n: string): string[] | undefined => {
    if (path.includes(n)) return [...path.slice(path.indexOf(n)), n];
    if (done.has(n)) return undefined;
    const r = all.get(scenarioKey(recoType, n));
    if (!r) return undefined;
    path.push(n);
    for (const ref of references(r)) {
      const found = visit(ref);
      if (found) return found;
    }
    path.pop();
    done.add(n);
    return undefined;
  };
  return visit(name);
}

function itemPropertiesOf(r: ScenarioRecord): Set<string> {
  const out = new Set<string>();
  const s = r.scenario as unknown as ScenarioBody;
  const add = (v: unknown) => typeof v === 'string' && out.add(v.toLowerCase());
  for (const f of (s.case?.filters as unknown[] | undefined) ?? [])
    add(typeof f === 'string' ? f.split(':')[0] : (f as { property_name?: unknown }).property_name);
  for (const f of (s.case?.reranking as unknown[] | undefined) ?? [])
    add(
      typeof f === 'string'
        ? f.split(':')[0]
        : ((f as { property_name?: unknown; name?: unknown }).property_name ?? (f as { name?: unknown }).name),
    );
  if (s.condition?.condition_type === 'item_property') add(s.condition.if.property_name);
  return out;
}
