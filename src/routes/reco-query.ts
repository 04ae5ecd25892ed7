// What every recommendation endpoint reads from its query or body (amt, cursor, filters, reranking,
// scenario, user_id), shared by the recommendation and precomputed-table routes.
import { Type, type TObject } from '@sinclair/typebox';
import { LIMITS } from '../config/limits.js';
import { wrongData } from '../errors/api-error.js';
import type { RecoQuery } from '../services/reco/request/request.js';
import { sharedList } from '../services/reco/request/rule-lists.js';
import { ROTATION_HOURS_MAX } from '../services/outcomes/rotation.js';

export const RuleStrings = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100 });
export const Filters = Type.Array(
  Type.Union([
    Type.String({ maxLength: 4096 }),
    Type.Object({ property_name: Type.String(), op: Type.String(), value: Type.Optional(Type.Unknown()) }),
  ]),
  { maxItems: 100 },
);
export const Rerankings = Type.Array(
  Type.Union([
    Type.String({ maxLength: 4096 }),
    Type.Object({
      property_name: Type.String(),
      op: Type.String(),
      weight: Type.Optional(Type.Number()),
      options: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ]),
  { maxItems: 100 },
);
// A runtime `scenario` must name a scenario of the endpoint's reco_type. user_id only ever selects
// an A/B group (and what scenarios ask about a user), never personalises.
export const ScenarioParams = {
  scenario: Type.Optional(Type.Unknown()),
  skip_default_scenario: Type.Optional(Type.Boolean()),
  user_id: Type.Optional(Type.Unknown()),
};
export const CommonParams = {
  amt: Type.Optional(Type.Unknown()),
  cursor: Type.Optional(Type.String({ maxLength: 256 })),
  ...ScenarioParams,
  // Rotation (recd's own, docs/api-choices.md "Rotation"), checked by query().
  rotation_rate: Type.Optional(Type.Unknown()),
  rotation_hours: Type.Optional(Type.Unknown()),
  // explain=true: with evaluated_scenarios and explanations (recd's own, docs/api-choices.md "Explanations").
  explain: Type.Optional(Type.Unknown()),
};

// amt is checked here rather than by the schema so that every form of a bad amt is WRONG_PARAMETER.
function amtOf(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > LIMITS.recoAmtMax) {
    throw wrongData('WRONG_PARAMETER', `amt must be an integer from 1 to ${LIMITS.recoAmtMax}`, { field: 'amt' });
  }
  return n;
}

// A number of the query string (text) or a body, within [min, max] (above min when open).
function numberOf(v: unknown, field: string, min: number, max: number, open: boolean): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' && /^[0-9.eE+-]{1,32}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || (open && n === min) || n > max)
    throw wrongData('WRONG_PARAMETER', `${field} must be a number from ${min}${open ? ' (excluded)' : ''} to ${max}`, { field });
  return n;
}

// true or false, as a body's boolean or the query string's text.
function explainOf(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 'false' || v === '') return false;
  if (v === true || v === 'true') return true;
  throw wrongData('WRONG_PARAMETER', 'explain must be true or false', { field: 'explain' });
}

export function scenarioName(v: unknown): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw wrongData('WRONG_PARAMETER', 'scenario must be the name of a scenario', { field: 'scenario' });
  return v;
}

// The request's own parameters; what it leaves out, its scenarios may set. Only the fields the route's
// schema declares (and so validated) are read: others reach the handler unchecked (unknown query keys
// pass the validator, unknown body fields are only warned about) and are ignored here.
export function query(q: Record<string, unknown>, schema: TObject): RecoQuery {
  const declared = (key: string) => (key in schema.properties ? q[key] : undefined);
  const explained = explainOf(declared('explain'));
  return {
    amt: amtOf(declared('amt')),
    cursor: (declared('cursor') as string | undefined) || undefined,
    filters: sharedList(declared('filters') as RecoQuery['filters']),
    reranking: sharedList(declared('reranking') as RecoQuery['reranking']),
    excludeRated: declared('exclude_rated_items') as boolean | undefined,
    table: declared('table') as string | undefined,
    scenario: scenarioName(declared('scenario')),
    skipDefault: declared('skip_default_scenario') === true,
    userId: declared('user_id'),
    rotationRate: numberOf(declared('rotation_rate'), 'rotation_rate', 0, 1, false),
    rotationHours: numberOf(declared('rotation_hours'), 'rotation_hours', 0, ROTATION_HOURS_MAX, true),
    explain: explained || undefined,
    reasons: explained || undefined,
  };
}
