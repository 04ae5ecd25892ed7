// Property value types (`value_type`): names, value checks, and the filter ops each supports.
// The complete list is documented in docs/api-choices.md.

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'notin' | 'notempty' | 'empty' | 'ftsearch';

export interface ValueType {
  name: string;
  kind: 'float' | 'int' | 'bool' | 'unicode';
  // Returns the value to store, or an explanation of why it does not fit.
  check(value: unknown): { ok: true; value: number | boolean | string } | { ok: false; why: string };
  ops: readonly FilterOp[];
}

const ORDERED: readonly FilterOp[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'notin', 'notempty', 'empty'];
const TEXT: readonly FilterOp[] = ['eq', 'neq', 'in', 'notin', 'notempty', 'empty', 'ftsearch'];
const BOOL: readonly FilterOp[] = ['eq', 'neq', 'notempty', 'empty'];

const FLOAT32_MAX = 3.4028234663852886e38;

function floatType(name: string, max: number): ValueType {
  return {
    name,
    kind: 'float',
    ops: ORDERED,
    check: (v) =>
      typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max ? { ok: true, value: v } : { ok: false, why: `${name} takes a finite number${max < Infinity ? ` within ±${max}` : ''}` },
  };
}

function intType(name: string, min: number, max: number): ValueType {
  return {
    name,
    kind: 'int',
    ops: ORDERED,
    check: (v) =>
      typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? { ok: true, value: v } : { ok: false, why: `${name} takes an integer from ${min} to ${max}` },
  };
}

function unicodeType(n: number): ValueType {
  const name = `unicode${n}`;
  return {
    name,
    kind: 'unicode',
    ops: TEXT,
    check(v) {
      // Length in characters (code points), as numpy's U<n> counts them.
      if (typeof v === 'string' && [...v].length <= n) return { ok: true, value: v };
      return { ok: false, why: `${name} takes a string of at most ${n} characters` };
    },
  };
}

const boolType: ValueType = {
  name: 'bool',
  kind: 'bool',
  ops: BOOL,
  check: (v) => (typeof v === 'boolean' ? { ok: true, value: v } : { ok: false, why: 'bool takes true or false' }),
};

// 64-bit integers are limited to what a JSON number carries exactly (±2^53 − 1).
const SAFE = Number.MAX_SAFE_INTEGER;
const FIXED: Record<string, ValueType> = {
  float: floatType('float', FLOAT32_MAX),
  float32: floatType('float32', FLOAT32_MAX),
  float64: floatType('float64', Number.MAX_VALUE),
  int8: intType('int8', -128, 127),
  int16: intType('int16', -32768, 32767),
  int32: intType('int32', -2147483648, 2147483647),
  int64: intType('int64', -SAFE, SAFE),
  uint8: intType('uint8', 0, 255),
  uint16: intType('uint16', 0, 65535),
  uint32: intType('uint32', 0, 4294967295),
  uint64: intType('uint64', 0, SAFE),
  bool: boolType,
};

export const VALUE_TYPE_NAMES = `${Object.keys(FIXED).join(', ')}, unicodeN (N from 1 to 999)`;

export function valueType(name: string): ValueType | undefined {
  const fixed = FIXED[name];
  if (fixed) return fixed;
  const m = /^unicode([1-9][0-9]{0,2})$/.exec(name);
  return m ? unicodeType(Number(m[1])) : undefined;
}
