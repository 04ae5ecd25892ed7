// Item filters: objects `{property_name, op, value}` or strings `prop:op:value` / `prop:op`, checked
// against property definitions and compiled into predicates over stored values.
import { notFound, wrongData } from '../../errors/api-error.js';
import { parseDecimal } from '../../schemas/decimal.js';
import type { PropertyDef } from '../../store/properties-store.js';
import { valueType, type FilterOp } from './value-types.js';

export const LISTING_OPS: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'notin', 'notempty', 'empty', 'ftsearch'];
export const RECO_OPS: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'notin', 'notempty'];

export interface FilterObject {
  property_name: string;
  op: string;
  value?: unknown;
}

// values: a property's storage sequence (PropertyDef.seq) -> value (a list for repeated properties).
export type Predicate = (values: ReadonlyMap<number, unknown>) => boolean;

export function parseFilterString(s: string): FilterObject {
  const first = s.indexOf(':');
  if (first <= 0)
    throw wrongData('WRONG_DATA_TYPE', `filter ${JSON.stringify(s)} is not of the form property:op[:value]`, { field: 'filters' });
  const second = s.indexOf(':', first + 1);
  const property_name = s.slice(0, first);
  if (second < 0) return { property_name, op: s.slice(first + 1) };
  return { property_name, op: s.slice(first + 1, second), value: s.slice(second + 1) };
}

type Missing = 'ITEM_PROPERTY_NOT_FOUND' | 'USER_PROPERTY_NOT_FOUND';

// defs: lower-cased name -> definition. allowed: the ops this endpoint accepts.
export function compileFilters(
  filters: (FilterObject | string)[],
  defs: ReadonlyMap<string, PropertyDef>,
  allowed: readonly FilterOp[],
  missing: Missing = 'ITEM_PROPERTY_NOT_FOUND',
): Predicate {
  const tests = filters.map((f) =>
    compileOne(typeof f === 'string' ? parseFilterString(f) : f, typeof f === 'string', defs, allowed, missing),
  );
  return (values) => tests.every((test) => test(values));
}

function compileOne(
  f: FilterObject,
  fromString: boolean,
  defs: ReadonlyMap<string, PropertyDef>,
  allowed: readonly FilterOp[],
  missing: Missing,
): Predicate {
  const def = defs.get(f.property_name.toLowerCase());
  if (!def) throw notFound(missing, 'property', f.property_name);
  const op = f.op.toLowerCase() as FilterOp;
  if (!(allowed as string[]).includes(op))
    throw wrongData('WRONG_DATA_TYPE', `unknown filter op ${JSON.stringify(f.op)}; use one of ${allowed.join(', ')}`, { field: 'filters' });
  const type = valueType(def.value_type)!;
  if (!type.ops.includes(op))
    throw wrongData('WRONG_OP_USE', `op ${op} does not apply to ${def.property_name} (${def.value_type})`, { field: 'filters' });
  const field = def.seq;
  if (op === 'notempty' || op === 'empty') {
    if (f.value !== undefined) throw wrongData('WRONG_OP_USE', `op ${op} takes no value`, { field: 'filters' });
    const present = (values: ReadonlyMap<number, unknown>) => {
      const v = values.get(field);
      return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
    };
    return op === 'notempty' ? present : (values) => !present(values);
  }
  if (f.value === undefined) throw wrongData('WRONG_OP_USE', `op ${op} needs a value`, { field: 'filters' });
  const scalar = (raw: unknown) => {
    const v = fromString ? fromText(raw as string, type.kind) : raw;
    const why = type.problem(v);
    if (why !== undefined) throw wrongData('WRONG_DATA_TYPE', `filter on ${def.property_name}: ${why}`, { field: 'filters' });
    return v;
  };
  // A repeated property matches when any of its values does (neq and notin: when none does).
  const any =
    (match: (x: unknown) => boolean, negate: boolean): Predicate =>
    (values) => {
      const v = values.get(field);
      const list = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
      const hit = list.some(match);
      return negate ? !hit : hit;
    };
  switch (op) {
    case 'in':
    case 'notin': {
      const raw = fromString ? String(f.value).split(',') : f.value;
      if (!Array.isArray(raw)) throw wrongData('WRONG_OP_USE', `op ${op} takes a list`, { field: 'filters' });
      const set = new Set(raw.map(scalar));
      return any((x) => set.has(x as never), op === 'notin');
    }
    case 'ftsearch': {
      const words = String(f.value).toLowerCase().split(/\s+/).filter(Boolean);
      return any((x) => typeof x === 'string' && words.every((w) => x.toLowerCase().includes(w)), false);
    }
    default: {
      // Ordered ops only reach numeric types (see value-types), so < compares numbers.
      const target = scalar(f.value) as number;
      const cmp: Record<string, (x: unknown) => boolean> = {
        eq: (x) => x === target,
        neq: (x) => x === target,
        lt: (x) => (x as number) < target,
        lte: (x) => (x as number) <= target,
        gt: (x) => (x as number) > target,
        gte: (x) => (x as number) >= target,
      };
      return any(cmp[op]!, op === 'neq');
    }
  }
}

function fromText(s: string, kind: 'float' | 'int' | 'bool' | 'unicode'): unknown {
  if (kind === 'unicode') return s;
  if (kind === 'bool') return { true: true, True: true, '1': true, false: false, False: false, '0': false }[s] ?? s;
  return parseDecimal(s) ?? s;
}
