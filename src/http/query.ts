// Query strings: repeated keys become lists, and values are coerced to what the route's schema asks.
import type { TSchema } from '@sinclair/typebox';
import { parseDecimal } from '../schemas/decimal.js';

export type RawQuery = Record<string, string | string[]>;

// Without a prototype: a query's keys (`__proto__`, `constructor`, `toString`) are only its own.
export function parseQuery(qs: string): RawQuery {
  const out: RawQuery = Object.create(null);
  if (qs === '') return out;
  for (const [key, value] of new URLSearchParams(qs)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

// Validated queries by their text, for one route: most of a route's requests repeat a few query
// strings (the same filters, exclude_rated_items=true), and parsing, coercing and checking one was
// ~7 % of a filtered page's CPU (by CPU profile, bench/http/reco.ts). Frozen, lists too: every request with that text
// shares it. Texts up to QUERY_TEXT_KEPT characters, QUERIES_KEPT of them, all dropped when full, so
// texts that never repeat (cursors) keep it small.
const QUERIES_KEPT = 256;
const QUERY_TEXT_KEPT = 512;
export class ValidQueries {
  private readonly held = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(
    private readonly schema: TSchema,
    private readonly check: (query: Record<string, unknown>) => void, // throws the refusal
  ) {}

  of(qs: string): Readonly<Record<string, unknown>> {
    const held = this.held.get(qs);
    if (held !== undefined) return held;
    const q = coerceQuery(parseQuery(qs), this.schema);
    this.check(q);
    for (const v of Object.values(q)) if (Array.isArray(v)) Object.freeze(v);
    Object.freeze(q);
    if (qs.length <= QUERY_TEXT_KEPT) {
      if (this.held.size >= QUERIES_KEPT) this.held.clear();
      this.held.set(qs, q);
    }
    return q;
  }
}

const BOOLS: Record<string, boolean> = {
  true: true,
  True: true,
  TRUE: true,
  '1': true,
  false: false,
  False: false,
  FALSE: false,
  '0': false,
};

// Coerces what the schema declares and leaves the rest for the validator to reject or ignore.
export function coerceQuery(raw: RawQuery, schema: TSchema): Record<string, unknown> {
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(raw)) {
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    out[key] = prop ? coerce(value, prop) : value;
  }
  return out;
}

function coerce(value: string | string[], schema: TSchema): unknown {
  if (schema.type === 'array') {
    const items = (schema as { items?: TSchema }).items;
    const list = Array.isArray(value) ? value : [value];
    return items ? list.map((v) => coerceScalar(v, items)) : list;
  }
  // A scalar given twice: the last one wins, as most frameworks do.
  const one = Array.isArray(value) ? value[value.length - 1]! : value;
  return coerceScalar(one, schema);
}

function coerceScalar(value: string, schema: TSchema): unknown {
  switch (schema.type) {
    case 'boolean':
      return value in BOOLS ? BOOLS[value] : value;
    case 'integer':
    case 'number':
      return parseDecimal(value) ?? value;
    default:
      return value;
  }
}
