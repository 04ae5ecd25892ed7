// Answers for pickle clients, shaped as their documentation says binary clients receive them: ID lists
// (`items_id`, `users_id`) as 1-D numpy arrays, record listings (`items`, `users`, `ratings`,
// `user_ratings`) as structured arrays, and repeated property values of item and user listings moved to
// `items_m2m` / `users_m2m` (`[{name, array: [(item_index, value_id)]}]`). A listing whose values do not
// fit one dtype per field (mixed kinds, nested objects) stays a list of dicts, which the clients read too.
//
// Field dtypes: rating and timestamp → float64; integers in [0, 2^32) → uint32, other integers within int32 → int32, other integers →
// int64; any non-integer → float64; a number field missing from some records → float64 with NaN there;
// strings → <U(longest), '' where missing; booleans → bool (a boolean field missing somewhere keeps the
// listing a list). Ids must be present and all numbers (uint32) or all strings.
import { NumpyArray, NumpyRecords, type NumpyColumn } from './encode-numpy.js';

const ID_LISTS = ['items_id', 'users_id'];
interface Listing {
  id?: string; // the id field, which must be present everywhere
  index?: string; // repeated values go to `<key>_m2m` with this index field
  floats?: readonly string[]; // fields that are float64 even when every value happens to be whole
}
const RATING_FLOATS = ['rating', 'timestamp'];
const LISTINGS: Record<string, Listing> = {
  items: { id: 'item_id', index: 'item_index' },
  users: { id: 'user_id', index: 'user_index' },
  ratings: { floats: RATING_FLOATS },
  user_ratings: { floats: RATING_FLOATS },
};

export function withNumpyArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Map) return value;
  const o = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => ((out ??= { ...o })[k] = v);
  for (const k of ID_LISTS) {
    if (!Array.isArray(o[k])) continue;
    const arr = idArray(o[k] as unknown[]);
    if (arr) set(k, arr);
  }
  for (const k in LISTINGS) {
    const rows = o[k];
    if (!Array.isArray(rows) || rows.length === 0) continue;
    const shaped = records(rows, LISTINGS[k]!);
    if (!shaped) continue;
    set(k, shaped.records);
    if (LISTINGS[k]!.index) set(`${k}_m2m`, shaped.m2m);
  }
  return out ?? value;
}

function idArray(ids: unknown[]): NumpyArray | undefined {
  if (ids.every((id) => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= 0xffffffff))
    return new NumpyArray(Uint32Array.from(ids as number[]));
  if (ids.length > 0 && ids.every((id) => typeof id === 'string')) return new NumpyArray(ids as string[]);
  return undefined;
}

interface Shaped {
  records: NumpyRecords;
  m2m: { name: string; array: NumpyRecords }[];
}

function records(rows: unknown[], names: Listing): Shaped | undefined {
  const fields: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
    for (const k of Object.keys(row)) if (!seen.has(k)) seen.add(k), fields.push(k);
  }
  const columns = new Map<string, NumpyColumn>();
  const m2m: Shaped['m2m'] = [];
  for (const f of fields) {
    const values = rows.map((r) => (r as Record<string, unknown>)[f]);
    if (f === names.id) {
      if (values.some((v) => v === undefined || v === null)) return undefined;
      const ids = idArray(values);
      if (!ids) return undefined;
      columns.set(f, ids);
      continue;
    }
    if (names.index && values.some(Array.isArray)) {
      // A repeated property: one (record index, value) row per value.
      const index: number[] = [];
      const flat: unknown[] = [];
      values.forEach((list, i) => {
        if (Array.isArray(list)) for (const v of list) index.push(i), flat.push(v);
      });
      if (values.some((v) => v !== undefined && !Array.isArray(v))) return undefined;
      const col = column(flat);
      if (!col) return undefined;
      m2m.push({
        name: f,
        array: new NumpyRecords(
          new Map<string, NumpyColumn>([
            [names.index, Uint32Array.from(index)],
            ['value_id', col],
          ]),
        ),
      });
      continue;
    }
    const col = column(values, names.floats?.includes(f) ?? false);
    if (!col) return undefined;
    columns.set(f, col);
  }
  if (columns.size === 0) return undefined;
  return { records: new NumpyRecords(columns), m2m };
}

function column(values: unknown[], float = false): NumpyColumn | undefined {
  const present = values.filter((v) => v !== undefined && v !== null);
  const missing = present.length < values.length;
  if (present.every((v) => typeof v === 'number')) {
    const nums = values as (number | undefined | null)[];
    if (!float && !missing && present.length > 0 && nums.every((v) => Number.isInteger(v))) {
      if (nums.every((v) => v! >= 0 && v! <= 0xffffffff)) return Uint32Array.from(nums as number[]);
      if (nums.every((v) => v! >= -0x80000000 && v! <= 0x7fffffff)) return Int32Array.from(nums as number[]);
      return BigInt64Array.from(nums as number[], (v) => BigInt(v));
    }
    return Float64Array.from(nums, (v) => (typeof v === 'number' ? v : NaN));
  }
  if (present.every((v) => typeof v === 'string')) return new NumpyArray(values.map((v) => (typeof v === 'string' ? v : '')));
  if (!missing && present.every((v) => typeof v === 'boolean'))
    return new NumpyArray(
      Uint8Array.from(values as boolean[], (v) => (v ? 1 : 0)),
      'bool',
    );
  return undefined;
}
