// What Python clients receive as numpy arrays, their documented answer types (spec/binary-clients.md
// §5): `items_id` / `users_id` as 1-D arrays, and listings (`items`, `users`, `ratings`,
// `user_ratings`, `interactions`) as structured arrays with repeated values in `items_m2m` /
// `users_m2m` (a list of {name, array: [(item_index, value_id)]}, the form those clients send).
// A list whose values have no numpy form (a field missing from some rows, null, nested objects,
// mixed kinds) stays a list of dicts, which the clients accept too.
import { NumpyArray, NumpyRecords, type NumpyColumn } from './encode-numpy.js';

const ID_LISTS = ['items_id', 'users_id'];
// Listing field → its m2m field (for entity listings, whose repeated values go there).
const RECORD_LISTS = new Map<string, { m2m: string; index: string } | undefined>([
  ['items', { m2m: 'items_m2m', index: 'item_index' }],
  ['users', { m2m: 'users_m2m', index: 'user_index' }],
  ['ratings', undefined],
  ['user_ratings', undefined],
  ['interactions', undefined],
]);
// Always float64, whatever one page holds, so pages of one listing concatenate.
const FLOAT_FIELDS = new Set(['rating', 'timestamp']);

export function withArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const o = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => ((out ??= { ...o })[k] = v);
  for (const k of ID_LISTS) if (Array.isArray(o[k])) set(k, idArray(o[k] as unknown[]));
  for (const [k, m2m] of RECORD_LISTS) {
    const rows = o[k];
    if (!Array.isArray(rows) || rows.length === 0) continue;
    const arrays = recordArrays(rows, m2m);
    if (!arrays) continue;
    set(k, arrays.records);
    if (m2m) set(m2m.m2m, arrays.m2m);
  }
  return out ?? value;
}

function idArray(ids: unknown[]): unknown {
  if (ids.every((id) => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= 0xffffffff)) return new NumpyArray(Uint32Array.from(ids as number[]));
  if (ids.length > 0 && ids.every((id) => typeof id === 'string')) return new NumpyArray(ids as string[]);
  return ids;
}

// Rows as columns (a repeated field, absent where a row has no values, as m2m rows); undefined
// when some field has no numpy form or is absent from some rows.
function recordArrays(rows: unknown[], m2m: { index: string } | undefined): { records: NumpyRecords; m2m: { name: string; array: NumpyRecords }[] } | undefined {
  const names = new Set<string>();
  for (const row of rows) {
    if (!isRecord(row)) return undefined;
    for (const k of Object.keys(row)) names.add(k);
  }
  const columns = new Map<string, NumpyColumn>();
  const repeated: { name: string; array: NumpyRecords }[] = [];
  for (const name of names) {
    const values = rows.map((r) => (r as Record<string, unknown>)[name]);
    if (m2m && values.every((v) => v === undefined || Array.isArray(v))) {
      const index: number[] = [], flat: unknown[] = [];
      values.forEach((list, r) => (list as unknown[] | undefined)?.forEach((v) => (index.push(r), flat.push(v))));
      const col = flat.length === 0 ? [] : column(name, flat);
      if (col === undefined) return undefined;
      repeated.push({ name, array: new NumpyRecords(new Map<string, NumpyColumn>([[m2m.index, Uint32Array.from(index)], ['value_id', col]])) });
      continue;
    }
    const col = column(name, values);
    if (col === undefined) return undefined;
    columns.set(name, col);
  }
  if (columns.size === 0) return undefined;
  return { records: new NumpyRecords(columns), m2m: repeated };
}

// A column's numpy form: float64 for FLOAT_FIELDS and fractions, uint32 / int32 / int64 for
// integers by range, unicode for strings, bool; undefined for anything else.
function column(name: string, values: unknown[]): NumpyColumn | undefined {
  if (values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    const nums = values as number[];
    if (FLOAT_FIELDS.has(name) || !nums.every(Number.isSafeInteger)) return Float64Array.from(nums);
    if (nums.every((v) => v >= 0 && v <= 0xffffffff)) return Uint32Array.from(nums);
    if (nums.every((v) => v >= -0x80000000 && v <= 0x7fffffff)) return Int32Array.from(nums);
    return BigInt64Array.from(nums, BigInt);
  }
  if (values.every((v) => typeof v === 'string')) return new NumpyArray(values as string[]);
  if (values.every((v) => typeof v === 'boolean')) return new NumpyArray(Uint8Array.from(values as boolean[], Number), 'bool');
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}
