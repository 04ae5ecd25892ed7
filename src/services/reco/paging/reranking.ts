// Reranking rules: `diversity` per item property, as objects or in every string form clients send
// (`p:diversity:w`, `p:diversity:w::opt:val`, `p:diversity:w:opt:val`, `p:diversity::opt:val`,
// `p:diversity:`), and the greedy diversification they drive.
import { notFound, wrongData } from '../../../errors/api-error.js';
import type { PropertyDef } from '../../../store/properties-store.js';

export interface RerankingObject {
  property_name: string;
  op: string;
  weight?: number;
  options?: Record<string, unknown>;
}

export interface DiversityRule {
  seq: number; // the property's storage sequence: where its values are
  weight: number;
  defaultMalus: number; // the malus of an item without a value for the property
}

const OPTIONS = new Set(['default_malus']);

export function parseRerankingString(s: string): RerankingObject {
  const parts = s.split(':');
  if (parts.length < 3 || parts[0] === '')
    throw bad(`reranking ${JSON.stringify(s)} is not of the form <property>:diversity:<weight>[::<option>:<value>]`);
  const [property_name, op, weight, ...rest] = parts as [string, string, string, ...string[]];
  const opts = rest[0] === '' ? rest.slice(1) : rest;
  if (opts.length % 2 !== 0) throw bad(`reranking ${JSON.stringify(s)}: options come as <name>:<value> pairs`);
  const options: Record<string, unknown> = {};
  for (let k = 0; k < opts.length; k += 2) options[opts[k]!] = Number(opts[k + 1]);
  return { property_name, op, ...(weight === '' ? {} : { weight: Number(weight) }), options };
}

export function compileReranking(rules: (RerankingObject | string)[], defs: ReadonlyMap<string, PropertyDef>): DiversityRule[] {
  return rules.map((raw) => {
    const r = typeof raw === 'string' ? parseRerankingString(raw) : raw;
    if (typeof r !== 'object' || r === null || typeof r.property_name !== 'string' || typeof r.op !== 'string')
      throw bad('a reranking rule needs property_name and op');
    if (r.op.toLowerCase() !== 'diversity') throw bad(`reranking op ${JSON.stringify(r.op)} is not supported: use diversity`);
    const def = defs.get(r.property_name.toLowerCase());
    if (!def) throw notFound('ITEM_PROPERTY_NOT_FOUND', 'property', r.property_name);
    const weight = r.weight ?? 1;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight <= 0)
      throw bad(`reranking weight must be a positive number, got ${JSON.stringify(r.weight)}`);
    const options = r.options ?? {};
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw bad('reranking options must be an object');
    for (const name of Object.keys(options))
      if (!OPTIONS.has(name)) throw bad(`unknown reranking option ${JSON.stringify(name)}: options are ${[...OPTIONS].join(', ')}`);
    const malus = options.default_malus ?? 0;
    if (typeof malus !== 'number' || !Number.isFinite(malus) || malus < 0)
      throw bad(`default_malus must be a non-negative number, got ${JSON.stringify(options.default_malus)}`);
    return { seq: def.seq, weight, defaultMalus: malus };
  });
}

// Reorders candidates (best first) so that items sharing a property value with items already
// chosen move down: the next item is the one of the next `window` candidates maximising
// relevance − Σ weight · malus, where relevance falls linearly with rank from 1 to 0 over the
// window and malus is the share of chosen items sharing a value with it (defaultMalus without a
// value). Deterministic, so pages over the result are stable.
export function diversify(
  candidates: number[],
  rules: DiversityRule[],
  valueAt: (item: number, seq: number) => unknown,
  want: number,
  window: number,
): number[] {
  const out: number[] = [];
  const left = candidates.slice();
  const seen = rules.map(() => new Map<string, number>());
  while (out.length < want && left.length > 0) {
    const span = Math.min(window, left.length);
    let best = 0,
      bestScore = -Infinity;
    for (let c = 0; c < span; c++) {
      let score = 1 - c / span;
      for (let r = 0; r < rules.length; r++)
        score -= rules[r]!.weight * malus(valueAt(left[c]!, rules[r]!.seq), seen[r]!, out.length, rules[r]!.defaultMalus);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    const chosen = left.splice(best, 1)[0]!;
    out.push(chosen);
    rules.forEach((rule, r) => {
      for (const key of keysOf(valueAt(chosen, rule.seq))) seen[r]!.set(key, (seen[r]!.get(key) ?? 0) + 1);
    });
  }
  return out;
}

function malus(value: unknown, seen: Map<string, number>, chosen: number, defaultMalus: number): number {
  const keys = keysOf(value);
  if (keys.length === 0) return defaultMalus;
  if (chosen === 0) return 0;
  let most = 0;
  for (const k of keys) most = Math.max(most, seen.get(k) ?? 0);
  return most / chosen;
}

function keysOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

const bad = (message: string) => wrongData('WRONG_DATA_TYPE', message, { field: 'reranking' });
