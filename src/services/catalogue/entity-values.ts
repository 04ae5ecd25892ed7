// The property values a write of items or users gives, checked against the database's definitions:
// one record, a list of records, a columnar body, and repeated values given column-wise (m2m).
import { LIMITS } from '../../config/limits.js';
import { duplicated, wrongData } from '../../errors/api-error.js';
import type { Claims } from '../../contract/claims.js';
import { isColumnar, type Rows, type ColumnarBody } from '../../contract/columnar.js';
import type { EntityKind } from '../../store/entities-store.js';
import { encodeRecord } from '../../store/entity-record.js';
import { pack } from '../../store/msgpack-values.js';
import type { PropertyDef } from '../../store/properties-store.js';
import type { Defs } from './catalogues.js';
import { parseId, type Parsed } from '../ids/request-ids.js';
import { valueType } from './value-types.js';

export const NAMES = {
  item: {
    idField: 'item_id',
    indexField: 'item_index',
    notFound: 'ITEM_NOT_FOUND',
    propertyNotFound: 'ITEM_PROPERTY_NOT_FOUND',
    duplicated: 'DUPLICATED_ITEM_ID',
    created: 'item_created',
    modified: 'item_modified',
  },
  user: {
    idField: 'user_id',
    indexField: 'user_index',
    notFound: 'USER_NOT_FOUND',
    propertyNotFound: 'USER_PROPERTY_NOT_FOUND',
    duplicated: 'DUPLICATED_USER_ID',
    created: 'user_created',
    modified: 'user_modified',
  },
} as const;

// Repeated values given column-wise: `{name, array: [{item_index, value_id}]}` (index into the request's
// list); `array` may be a columnar body (a numpy structured array).
export interface M2m {
  name: string;
  array: Rows;
}

export type Values = Record<number, unknown>; // property storage sequence -> value (null: remove, in merges)

// Every value checked against its property; unknown fields are named in a warning.
export function checkValues(
  auth: Claims,
  kind: EntityKind,
  defs: Defs,
  id: Parsed,
  values: Record<string, unknown>,
  mode: 'replace' | 'merge',
  warnings: string[],
): Values {
  const fields: Values = {};
  let ignored: string[] | undefined;
  for (const name in values) {
    const value = values[name];
    if (name === NAMES[kind].idField) {
      if (parseId(auth, kind, value, false).key !== id.key) {
        throw wrongData('WRONG_PARAMETER', `${name} in the body differs from the one in the path`, { field: name });
      }
      continue;
    }
    const def = defs.get(name) ?? defs.get(name.toLowerCase());
    if (!def) {
      (ignored ??= []).push(name);
      continue;
    }
    if (value === null) {
      if (mode === 'merge') fields[def.seq] = null;
      continue;
    }
    fields[def.seq] = checkValue(def, value, kind, id);
  }
  if (ignored) warnings.push(`not defined as ${kind} properties, ignored: ${ignored.join(', ')}`);
  return fields;
}

export function checkValue(def: PropertyDef, value: unknown, kind: EntityKind, id: Parsed): unknown {
  const type = valueType(def.value_type)!;
  let why: string | undefined;
  let limit: number | undefined;
  if (def.repeated) {
    if (!Array.isArray(value)) why = `a repeated property takes a list of ${def.value_type} values`;
    else if (value.length > LIMITS.repeatedValuesMax) {
      limit = LIMITS.repeatedValuesMax;
      why = `a repeated property holds at most ${limit} values, not ${value.length}`;
    } else for (let i = 0; i < value.length && why === undefined; i++) why = type.problem(value[i]);
  } else {
    why = Array.isArray(value) ? `takes one ${def.value_type} value, not a list` : type.problem(value);
  }
  if (why === undefined) return value;
  throw wrongData('WRONG_DATA_TYPE', `property ${def.property_name} of ${kind} ${JSON.stringify(id.value)}: ${why}`, {
    property: def.property_name,
    [NAMES[kind].idField]: id.value,
    ...(limit === undefined ? {} : { limit }),
  });
}

// The record as stored, refused past LIMITS.recordBytesMax (a merge's record too, before it is written):
// the error names the property taking the most room. Null values (removals of a merge) are left out.
export function storedRecord(kind: EntityKind, defs: Defs, id: Parsed, values: Values): Buffer {
  const kept = withoutNulls(values);
  const blob = encodeRecord(id.key, kept);
  if (blob.length <= LIMITS.recordBytesMax) return blob;
  let largest: PropertyDef | undefined;
  let most = -1;
  for (const def of defs.values()) {
    const v = kept[def.seq];
    const bytes = v === undefined ? -1 : pack(v).length;
    if (bytes > most) [largest, most] = [def, bytes];
  }
  const name = largest?.property_name ?? '';
  throw wrongData(
    'WRONG_DATA_TYPE',
    `the properties of ${kind} ${JSON.stringify(id.value)} take ${blob.length} bytes stored, more than ${LIMITS.recordBytesMax}; the largest is ${name} (${most} bytes)`,
    { property: name, [NAMES[kind].idField]: id.value, limit: LIMITS.recordBytesMax, bytes: blob.length },
  );
}

// Records from a list: ids distinct, values checked.
export function listValues(
  auth: Claims,
  kind: EntityKind,
  defs: Defs,
  records: readonly unknown[],
  mode: 'replace' | 'merge',
  warnings: string[],
) {
  const names = NAMES[kind];
  const seen = new Set<string>();
  const ids: Parsed[] = [];
  const values: Values[] = records.map((raw, i) => {
    const record = raw as Record<string, unknown>;
    if (typeof record !== 'object' || record === null || Array.isArray(record))
      throw wrongData('WRONG_DATA_TYPE', `${kind}s[${i}] is not an object`, { field: `${kind}s.${i}` });
    if (record[names.idField] === undefined)
      throw wrongData('WRONG_DATA_TYPE', `${kind}s[${i}] has no ${names.idField}`, { field: `${kind}s.${i}` });
    ids.push(distinct(auth, kind, record[names.idField], seen));
    return checkValues(auth, kind, defs, ids[i]!, record, mode, warnings);
  });
  return { ids, values };
}

// Records from a columnar body, column by column: each column is matched to its property once, and no object is
// made per row besides the values written.
export function columnarValues(
  auth: Claims,
  kind: EntityKind,
  defs: Defs,
  body: ColumnarBody,
  mode: 'replace' | 'merge',
  warnings: string[],
) {
  const names = NAMES[kind];
  const idCol = body.column(names.idField);
  if (!idCol) throw wrongData('WRONG_DATA_TYPE', `${kind}s have no ${names.idField} field`, { field: `${kind}s.${names.idField}` });
  const columns: { def: PropertyDef; get: (i: number) => unknown }[] = [];
  const ignored: string[] = [];
  for (const name of body.names) {
    if (name === names.idField) continue;
    const def = defs.get(name) ?? defs.get(name.toLowerCase());
    if (!def) ignored.push(name);
    else columns.push({ def, get: body.column(name)!.get });
  }
  if (ignored.length > 0) warnings.push(`not defined as ${kind} properties, ignored: ${ignored.join(', ')}`);
  const seen = new Set<string>();
  const ids: Parsed[] = [];
  const values: Values[] = new Array(body.length);
  for (let i = 0; i < body.length; i++) {
    const id = distinct(auth, kind, idCol.get(i), seen);
    ids.push(id);
    const fields: Values = {};
    for (const c of columns) {
      const v = c.get(i);
      if (v === null || v === undefined) {
        if (mode === 'merge') fields[c.def.seq] = null;
      } else fields[c.def.seq] = checkValue(c.def, v, kind, id);
    }
    values[i] = fields;
  }
  return { ids, values };
}

export function distinct(auth: Claims, kind: EntityKind, raw: unknown, seen: Set<string>): Parsed {
  const names = NAMES[kind];
  const id = parseId(auth, kind, raw, true);
  if (seen.has(id.key))
    throw duplicated(names.duplicated, kind, id.value, `${names.idField} ${JSON.stringify(id.value)} appears twice in this request`);
  seen.add(id.key);
  return id;
}

// The value a record itself gives for a property (any letter case), by record position.
export function ownValue(records: Rows): (at: number, name: string) => unknown {
  if (isColumnar(records)) {
    return (at, name) => {
      const col = records.names.find((k) => k.toLowerCase() === name);
      return col === undefined ? undefined : records.column(col)!.get(at);
    };
  }
  return (at, name) => {
    const record = records[at] as Record<string, unknown>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : record[key];
  };
}

// m2m rows append to the repeated property's list of the record they point at (after any list the
// record itself gives).
export function applyM2m(
  kind: EntityKind,
  defs: Defs,
  m2m: M2m[],
  writes: Values[],
  ids: Parsed[],
  own: (at: number, name: string) => unknown,
): void {
  const indexField = NAMES[kind].indexField;
  for (const block of m2m) {
    const def = defs.get(block.name.toLowerCase());
    if (!def?.repeated) {
      throw wrongData('WRONG_DATA_TYPE', `${kind}s_m2m name ${JSON.stringify(block.name)} is not a repeated ${kind} property`, {
        field: `${kind}s_m2m`,
      });
    }
    const name = def.property_name.toLowerCase();
    const lists = new Map<number, unknown[]>();
    const rows = m2mRows(block.array, indexField, kind);
    for (let r = 0; r < rows.length; r++) {
      const at = rows.index(r);
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= writes.length) {
        throw wrongData('WRONG_DATA_TYPE', `${kind}s_m2m ${block.name}: ${indexField} ${JSON.stringify(at)} does not point into ${kind}s`, {
          field: `${kind}s_m2m`,
        });
      }
      let list = lists.get(at);
      if (!list) {
        const mine = own(at, name);
        lists.set(at, (list = Array.isArray(mine) ? [...mine] : []));
      }
      list.push(rows.value(r));
    }
    for (const [at, list] of lists) writes[at]![def.seq] = checkValue(def, list, kind, ids[at]!);
  }
}

function withoutNulls(values: Values): Values {
  let kept: Values | undefined;
  for (const seq in values) {
    if (values[seq] !== null) continue;
    kept ??= { ...values };
    delete kept[seq];
  }
  return kept ?? values;
}

// An m2m array as (index, value) pairs, from a list of rows or a columnar body's two columns.
export function m2mRows(
  array: Rows,
  indexField: string,
  kind: EntityKind,
): { length: number; index(r: number): unknown; value(r: number): unknown } {
  if (!isColumnar(array)) {
    const rows = array as readonly Record<string, unknown>[];
    return { length: rows.length, index: (r) => rows[r]?.[indexField], value: (r) => rows[r]?.value_id };
  }
  const index = array.column(indexField);
  const value = array.column('value_id');
  if (!index || !value)
    throw wrongData('WRONG_DATA_TYPE', `${kind}s_m2m arrays need the fields ${indexField} and value_id`, { field: `${kind}s_m2m` });
  return { length: array.length, index: index.get, value: value.get };
}
