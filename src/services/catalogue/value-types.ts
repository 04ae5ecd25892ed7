// Property value types (`value_type`): names, value checks, and the filter ops each supports.
// The complete list is documented in docs/api-choices.md.

export type FilterOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'notin' | 'notempty' | 'empty' | 'ftsearch';

export interface ValueType {
  name: string;
  kind: 'float' | 'int' | 'bool' | 'unicode';
  // Why a value does not fit (values that fit are stored as given); undefined when it fits.
  problem(value: unknown): string | undefined;
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
    problem: (v) =>
      typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max
        ? undefined
        : `${name} takes a finite number${max < Infinity ? ` within ±${max}` : ''}`,
  };
}

function intType(name: string, min: number, max: number): ValueType {
  return {
    name,
    kind: 'int',
    ops: ORDERED,
    problem: (v) =>
      typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? undefined : `${name} takes an integer from ${min} to ${max}`,
  };
}

function unicodeType(n: number): ValueType {
  const name = `unicode${n}`;
  return {
    name,
    kind: 'unicode',
    ops: TEXT,
    problem(v) {
      // Length in characters (code points), as numpy's U<n> counts them; UTF-16 units bound it from above.
      return typeof v === 'string' && (v.length <= n || codePoints(v) <= n)
        ? undefined
        : `${name} takes a string of at most ${n} characters`;
    },
  };
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++; // a surrogate pair is one character
    }
    n++;
  }
  return n;
}

const boolType: ValueType = {
  name: 'bool',
  kind: 'bool',
  ops: BOOL,
  problem: (v) => (typeof v === 'boolean' ? undefined : 'bool takes true or false'),
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

const unicodeTypes = new Map<string, ValueType>();

export function valueType(name: string): ValueType | undefined {
  const known = FIXED[name] ?? unicodeTypes.get(name);
  if (known) return known;
  const m = /^unicode([1-9][0-9]{0,2})$/.exec(name);
  if (!m) return undefined;
  const type = unicodeType(Number(m[1]));
  unicodeTypes.set(name, type);
  return type;
}
