// A 1-D numpy structured array as a columnar body (the shape services read bulk rows in, see Rows
// in contract/columnar.ts): each field's elements stay the typed array the decoder made, a view over the
// request's bytes where alignment allows. No object is made per row.
import { COLUMNAR, type Column, type ColumnarBody } from '../../contract/columnar.js';
import { NdArray } from './ndarray.js';

export class StructuredColumns implements ColumnarBody {
  readonly [COLUMNAR] = true as const;
  readonly length: number;
  readonly names: readonly string[];
  private readonly columns = new Map<string, Column>();

  constructor(readonly array: NdArray) {
    this.length = array.size;
    for (const [name, col] of array.columns!) this.columns.set(name, columnOf(col));
    this.names = [...this.columns.keys()];
  }

  column(name: string): Column | undefined {
    return this.columns.get(name);
  }

  static accepts(v: unknown): v is NdArray {
    return v instanceof NdArray && v.columns !== null && v.shape.length === 1;
  }
}

function columnOf(col: NdArray): Column {
  const data = col.data;
  const exact =
    data !== null
    && !col.columns
    && (col.dtype.kind === 'i' || col.dtype.kind === 'u' || col.dtype.kind === 'f')
    && col.dtype.itemsize <= 4;
  if (exact || (col.dtype.kind === 'f' && col.dtype.itemsize === 8)) {
    const numbers = data as ArrayLike<number>;
    return { numbers, get: (i) => numbers[i] };
  }
  // bool, 64-bit integers, text, bytes, nested records: element by element, as a JSON body holds them.
  return {
    numbers: undefined,
    get: (i) => {
      const v = col.item(i);
      return typeof v === 'bigint' ? v.toString() : v;
    },
  };
}
