// Bulk rows as a request gives them: a list of records (JSON, msgpack, pickled lists), or a table of
// columns (a pickled numpy structured array, for the body fields a route names in `tables`), which
// services read column by column without making one object per row. Codecs build tables; this is
// their shape, recognised by the TABLE brand (declared here only).
export const TABLE = Symbol.for('recd.table');

export interface Column {
  // Every element as a number when the column's type allows it exactly (ints up to 32 bits, floats):
  // a typed array over the request's bytes where alignment allows.
  readonly numbers: ArrayLike<number> | undefined;
  // The element as a JSON body would hold it (bytes as Uint8Array, 64-bit integers beyond 2^53 as
  // decimal text).
  get(i: number): unknown;
}

export interface Table {
  readonly [TABLE]: true;
  readonly length: number;
  readonly names: readonly string[];
  column(name: string): Column | undefined;
}

export type Rows = readonly unknown[] | Table;

export const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && (v as { [TABLE]?: unknown })[TABLE] === true;

