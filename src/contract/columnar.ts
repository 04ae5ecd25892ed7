// Bulk rows as a request gives them: a list of records (JSON, msgpack, pickled lists), or a columnar
// body (a pickled numpy structured array, for the body fields a route names in `columnar`), which
// services read column by column without making one object per row. Codecs build columnar bodies;
// this is their shape, recognised by the COLUMNAR brand (declared here only). ("Table" in recd means
// a precomputed recommendation table only.)
export const COLUMNAR = Symbol.for('recd.columnar');

export interface Column {
  // Every element as a number when the column's type allows it exactly (ints up to 32 bits, floats):
  // a typed array over the request's bytes where alignment allows.
  readonly numbers: ArrayLike<number> | undefined;
  // The element as a JSON body would hold it (bytes as Uint8Array, 64-bit integers beyond 2^53 as
  // decimal text).
  get(i: number): unknown;
}

export interface ColumnarBody {
  readonly [COLUMNAR]: true;
  readonly length: number;
  readonly names: readonly string[];
  column(name: string): Column | undefined;
}

export type Rows = readonly unknown[] | ColumnarBody;

export const isColumnar = (v: unknown): v is ColumnarBody =>
  typeof v === 'object' && v !== null && (v as { [COLUMNAR]?: unknown })[COLUMNAR] === true;
