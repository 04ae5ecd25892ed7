// How item and user property values sit in files, by the property's value_type: CSV cells are text
// (a list is JSON text, an absent value an empty cell, an empty string a quoted empty cell), Parquet
// columns have the property's own type (a repeated property is a LIST of it). The server checks
// every value: a cell that does not read as its type is sent as it is, for the server to name.
import type { FileRow } from './rows.js';

export interface PropertyDef {
  property_name: string;
  value_type: string;
  repeated: boolean;
}

// Parquet's physical type for a value_type. 32-bit integers fit INT32; uint32 and the 64-bit ones
// (within ±2^53, what the server takes) need INT64. Floats are DOUBLE whatever their width, because
// the server keeps the number it was sent, and FLOAT would change 0.1 into 0.10000000149….
const PARQUET_TYPE: Record<string, 'DOUBLE' | 'INT32' | 'INT64' | 'BOOLEAN'> = {
  float: 'DOUBLE',
  float32: 'DOUBLE',
  float64: 'DOUBLE',
  int8: 'INT32',
  int16: 'INT32',
  int32: 'INT32',
  uint8: 'INT32',
  uint16: 'INT32',
  uint32: 'INT64',
  int64: 'INT64',
  uint64: 'INT64',
  bool: 'BOOLEAN',
};

type Scalar = 'number' | 'bool' | 'string';

// A property whose value may be the empty string (a CSV cell "", not an empty cell).
export const takesEmptyString = (def: PropertyDef) => !def.repeated && PARQUET_TYPE[def.value_type] === undefined;

function scalarOf(valueType: string): Scalar {
  const t = PARQUET_TYPE[valueType];
  return t === undefined ? 'string' : t === 'BOOLEAN' ? 'bool' : 'number';
}

// A value read from a file as the API wants it; undefined: the property is left out (null, or an
// empty cell of a property that cannot be the empty string).
export function apiValue(def: PropertyDef, v: unknown): unknown {
  if (v === null || v === undefined || (v === '' && !takesEmptyString(def))) return undefined;
  const scalar = scalarOf(def.value_type);
  if (def.repeated) {
    let list = v;
    if (typeof v === 'string') {
      try {
        list = JSON.parse(v);
      } catch {
        return v;
      }
    }
    return Array.isArray(list) ? list.map((x) => scalarValue(scalar, x)) : list;
  }
  return scalarValue(scalar, v);
}

function scalarValue(scalar: Scalar, v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : String(v);
  if (typeof v !== 'string') return v;
  if (scalar === 'number') return decimalOf(v) ?? v;
  if (scalar === 'bool') {
    const lower = v.trim().toLowerCase();
    return lower === 'true' || lower === '1' ? true : lower === 'false' || lower === '0' ? false : v;
  }
  return v;
}

// A number written in decimal (`12`, `-1.5`, `2e3`), as the API reads numbers in text; Number()
// would also take `0x10`, `0b1` or ` `.
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
export const decimalOf = (v: string): number | undefined => (DECIMAL.test(v) && Number.isFinite(Number(v)) ? Number(v) : undefined);

// A record for the bulk endpoints from a file row: the id as it is (bigints as numbers when exact,
// the server reads ids by the database's types), the properties converted; columns were matched to
// properties beforehand (byColumn).
export function entityRecord(row: FileRow, idField: string, byColumn: Map<string, PropertyDef>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === idField) {
      if (v !== null && v !== undefined && v !== '')
        out[k] = typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v;
      continue;
    }
    const value = apiValue(byColumn.get(k)!, v);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

// A CSV cell of an API value: undefined (absent) stays undefined, written as an empty cell.
export function csvCell(def: PropertyDef, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (def.repeated || typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

type SchemaElement = {
  name: string;
  type?: string;
  repetition_type: 'REQUIRED' | 'OPTIONAL' | 'REPEATED';
  converted_type?: string;
  num_children?: number;
};

// A property's Parquet schema elements (a LIST as the format's three levels) and its column data.
export function parquetProperty(def: PropertyDef, values: unknown[]): { schema: SchemaElement[]; data: unknown[] } {
  const type = PARQUET_TYPE[def.value_type];
  const leaf = (name: string): SchemaElement =>
    type === undefined
      ? { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' }
      : { name, type, repetition_type: 'OPTIONAL' };
  const cell = (v: unknown) =>
    v === undefined || v === null ? null : type === 'INT64' ? BigInt(v as number) : type === undefined ? String(v) : v;
  if (!def.repeated) return { schema: [leaf(def.property_name)], data: values.map(cell) };
  return {
    schema: [
      { name: def.property_name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      leaf('element'),
    ],
    data: values.map((v) => (Array.isArray(v) ? v.map(cell) : null)),
  };
}

// The id column: INT64 when every id is a number (uint32, uint64 databases), else text.
export function parquetId(name: string, values: unknown[]): { schema: SchemaElement[]; data: unknown[] } {
  const numbers = values.every((v) => typeof v === 'number');
  return {
    schema: [
      numbers
        ? { name, type: 'INT64', repetition_type: 'REQUIRED' }
        : { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    ],
    data: numbers ? values.map((v) => BigInt(v as number)) : values.map(String),
  };
}
