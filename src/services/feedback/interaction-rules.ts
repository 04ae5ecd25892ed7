// How interactions become inferred ratings: per interaction type, a rating (1..10) and how it
// combines with the pair's inferred rating so far — `max` keeps the higher, `replace` overrides.
// Explicit ratings always win: an interaction never changes a rating given explicitly.
// Each database may replace the rules (`interaction-rules/`); types it does not list use the defaults.
import { LIMITS } from '../../config/limits.js';
import { ApiError, notFound, wrongData } from '../../errors/api-error.js';
import type { SettingsStore } from '../../store/settings-store.js';
import type { Catalogues } from '../catalogue/catalogues.js';

export interface InteractionRule {
  rating: number;
  combine: 'max' | 'replace';
}

export type InteractionRules = Record<string, InteractionRule>; // lower-cased type -> rule

export const DEFAULT_RULES: Readonly<InteractionRules> = Object.freeze({
  view: { rating: 6, combine: 'max' },
  detail_view: { rating: 6.5, combine: 'max' },
  click: { rating: 6.5, combine: 'max' },
  bookmark: { rating: 7.5, combine: 'max' },
  add_to_wishlist: { rating: 7.5, combine: 'max' },
  add_to_cart: { rating: 8, combine: 'max' },
  share: { rating: 8, combine: 'max' },
  purchase: { rating: 9.5, combine: 'max' },
  like: { rating: 9, combine: 'replace' },
  remove_from_cart: { rating: 4, combine: 'replace' },
  dislike: { rating: 2, combine: 'replace' },
});

const MAX_RULES = 1000;

const SETTING = 'interaction-rules';

export class InteractionRuleService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly catalogues: Catalogues,
  ) {}

  // The database's own rules (empty when it has none), and the defaults.
  async get(db: string): Promise<{ rules: InteractionRules; defaults: InteractionRules }> {
    return { rules: await this.own(db), defaults: DEFAULT_RULES };
  }

  // Held in memory per process (the change stream says when they change).
  private own(db: string): Promise<InteractionRules> {
    return this.catalogues.get(db).setting(SETTING, async () => {
      const rules = await this.settings.get<InteractionRules>(db, SETTING);
      if (rules === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
      return rules ?? {};
    });
  }

  async replace(db: string, rules: Record<string, unknown>): Promise<void> {
    const out: InteractionRules = {};
    const entries = Object.entries(rules);
    if (entries.length > MAX_RULES) throw wrongData('WRONG_PARAMETER', `at most ${MAX_RULES} rules`, { field: 'rules' });
    for (const [type, rule] of entries) {
      checkType(type, `rules.${type}`);
      const r = rule as Partial<InteractionRule> | null;
      if (
        typeof r !== 'object'
        || r === null
        || typeof r.rating !== 'number'
        || r.rating < LIMITS.ratingMin
        || r.rating > LIMITS.ratingMax
      ) {
        throw wrongData('WRONG_DATA_TYPE', `rules.${type}.rating must be a number from ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`, {
          field: `rules.${type}`,
        });
      }
      const combine = r.combine ?? 'max';
      if (combine !== 'max' && combine !== 'replace')
        throw wrongData('WRONG_DATA_TYPE', `rules.${type}.combine must be "max" or "replace"`, { field: `rules.${type}` });
      out[type.toLowerCase()] = { rating: r.rating, combine };
    }
    // Only while the database exists, so a deleted database gets no key back.
    const change = await this.settings.replace(db, SETTING, out);
    if (change === undefined) throw notFound('DATABASE_NOT_FOUND', 'database', db);
    await this.catalogues.reached(db, change);
  }

  // The rule for each type (lower-cased), or ServerUnavailable naming the first type without one.
  async resolve(db: string, types: Iterable<string>): Promise<Map<string, InteractionRule>> {
    return this.resolveNow(db, types) ?? ruleMap(await this.own(db), types);
  }

  // The same without waiting: undefined when this process does not hold the database's rules yet.
  resolveNow(db: string, types: Iterable<string>): Map<string, InteractionRule> | undefined {
    const own = this.catalogues.get(db).cachedSetting<InteractionRules>(SETTING);
    return own && ruleMap(own, types);
  }
}

function ruleMap(own: InteractionRules, types: Iterable<string>): Map<string, InteractionRule> {
  const out = new Map<string, InteractionRule>();
  for (const type of types) {
    const lower = type.toLowerCase();
    if (out.has(lower)) continue;
    const rule = own[lower] ?? DEFAULT_RULES[lower];
    if (!rule) {
      throw new ApiError(
        'ServerUnavailable',
        'DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND',
        `interaction type ${JSON.stringify(type)} has no rule turning it into a rating: add one with PUT interaction-rules/`,
        {
          interaction_type: type,
        },
      );
    }
    out.set(lower, rule);
  }
  return out;
}

export function checkType(type: unknown, field: string): string {
  if (typeof type !== 'string' || type.length === 0 || type.length > LIMITS.nameMax) {
    throw wrongData('WRONG_DATA_TYPE', `${field} must be a string of 1 to ${LIMITS.nameMax} characters`, { field });
  }
  return type;
}
