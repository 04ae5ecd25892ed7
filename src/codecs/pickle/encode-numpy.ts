// numpy arrays for pickle responses: wrap typed arrays (or string lists) in NumpyArray, or named
// columns in NumpyRecords, and the pickle encoder writes a real `numpy.ndarray` with the right dtype.
//
// The opcodes are those numpy itself emits for `pickle.dumps(arr, protocol=4)` (without memo):
//   numpy.core.multiarray._reconstruct(numpy.ndarray, (0,), b'b')
//   BUILD (1, (n,), dtype, False, <raw C-order bytes>)
// with dtype = numpy.dtype('u4', False, True) BUILD (3, '<', None, names, fields, elsize, alignment, flags).
// The module is named `numpy.core.multiarray`, not numpy ≥ 2's `numpy._core.multiarray`: numpy 1.x
// (1.24 on the clients we serve) only has the former, and numpy 2.x keeps `_reconstruct` importable
// from `numpy.core.multiarray` without a DeprecationWarning precisely to load old pickles.
import { OP, type PickleWriter } from './encode-writer.js';
import { writeGlobal, writeSimpleDtype, writeStructDtype, type Layout } from './numpy-dtype.js';

export type NumpyData =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array
  | string[];

// Overrides of the dtype the data implies:
// - 'bool': a Uint8Array holding numpy booleans (any nonzero byte is True);
// - `U${n}`: a string array of fixed width n characters rather than the longest string's length
//   (a longer string throws: numpy would truncate it silently).
export type NumpyKind = 'bool' | `U${number}`;

// A 1-D numpy array. Strings become `<U{width}`: UCS-4, one 4-byte code point per character, NUL
// padded; width is the longest string in code points (at least 1, as numpy infers). A lone surrogate
// is stored as its own code point, as Python's str holds it (see utf8SurrogatePass).
export class NumpyArray {
  constructor(
    readonly data: NumpyData,
    readonly kind?: NumpyKind,
  ) {
    if (kind === 'bool' && !(data instanceof Uint8Array)) throw new TypeError("NumpyArray kind 'bool' needs a Uint8Array");
    if (kind !== undefined && kind !== 'bool') {
      if (!Array.isArray(data)) throw new TypeError(`NumpyArray kind '${kind}' needs a string array`);
      const width = Number(kind.slice(1));
      if (!/^U[1-9][0-9]*$/.test(kind) || !Number.isSafeInteger(width)) throw new TypeError(`bad NumpyArray kind '${kind}'`);
    }
    if (Array.isArray(data)) {
      for (const s of data) if (typeof s !== 'string') throw new TypeError('NumpyArray string data must hold only strings');
    }
  }

  get length(): number {
    return this.data.length;
  }

  // JSON clients get a plain list.
  toJSON(): unknown[] {
    const d = this.data;
    if (this.kind === 'bool') return Array.from(d as Uint8Array, (b) => b !== 0);
    if (d instanceof BigInt64Array || d instanceof BigUint64Array) return Array.from(d, Number);
    return Array.from(d as ArrayLike<number | string>);
  }
}

export type NumpyColumn = NumpyArray | NumpyData;

// A 1-D structured array from equally long named columns, fields in the given order at packed offsets,
// as `numpy.array(rows, dtype=[('item_index', '<u4'), ('value_id', '<U16')])` lays them out.
// Integer-like names in a plain object come first (JS key order); pass a Map to control the order fully.
export class NumpyRecords {
  readonly columns: ReadonlyArray<readonly [string, NumpyArray]>;
  readonly length: number;

  constructor(columns: Record<string, NumpyColumn> | ReadonlyMap<string, NumpyColumn>) {
    const entries = columns instanceof Map ? [...columns] : Object.entries(columns);
    if (entries.length === 0) throw new TypeError('NumpyRecords needs at least one column');
    this.columns = entries.map(([name, col]) => {
      if (name === '') throw new TypeError('NumpyRecords column names must not be empty');
      return [name, col instanceof NumpyArray ? col : new NumpyArray(col)] as const;
    });
    this.length = this.columns[0]![1].length;
    for (const [name, col] of this.columns) {
      if (col.length !== this.length) throw new RangeError(`NumpyRecords column '${name}' has ${col.length} rows, not ${this.length}`);
    }
  }

  // JSON clients get a list of row objects.
  toJSON(): Record<string, unknown>[] {
    const cols = this.columns.map(([name, col]) => [name, col.toJSON()] as const);
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < this.length; i++) {
      const row: Record<string, unknown> = {};
      for (const [name, values] of cols) row[name] = values[i];
      rows.push(row);
    }
    return rows;
  }
}

// ---- layout ----------------------------------------------------------------------------------

const NUMERIC: ReadonlyArray<readonly [new (n: number) => unknown, string, number]> = [
  [Uint8Array, 'u1', 1],
  [Int8Array, 'i1', 1],
  [Uint16Array, 'u2', 2],
  [Int16Array, 'i2', 2],
  [Uint32Array, 'u4', 4],
  [Int32Array, 'i4', 4],
  [Float32Array, 'f4', 4],
  [Float64Array, 'f8', 8],
  [BigInt64Array, 'i8', 8],
  [BigUint64Array, 'u8', 8],
];

function layout(a: NumpyArray): Layout {
  const d = a.data;
  if (Array.isArray(d)) {
    let width = 1;
    if (a.kind !== undefined) width = Number(a.kind.slice(1));
    for (const s of d) {
      const n = codePoints(s);
      if (a.kind === undefined) width = Math.max(width, n);
      else if (n > width) throw new RangeError(`string of ${n} characters does not fit numpy dtype <${a.kind}`);
    }
    return { name: `U${width}`, order: '<', itemsize: 4 * width, flags: 8, strings: { values: d, width } };
  }
  if (a.kind === 'bool') return { name: 'b1', order: '|', itemsize: 1, flags: 0 };
  for (const [ctor, name, size] of NUMERIC) {
    if (d instanceof ctor) return { name, order: size === 1 ? '|' : '<', itemsize: size, flags: 0 };
  }
  throw new TypeError('unsupported NumpyArray data');
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// Writes every element of `a` into `out` at offset + i*stride, little-endian.
function fill(a: NumpyArray, lay: Layout, out: Uint8Array, offset: number, stride: number): void {
  const d = a.data;
  if (lay.strings) {
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    lay.strings.values.forEach((s, i) => {
      let p = offset + i * stride;
      for (let j = 0; j < s.length; j++, p += 4) {
        let c = s.charCodeAt(j);
        if (c >= 0xd800 && c <= 0xdbff && j + 1 < s.length) {
          const e = s.charCodeAt(j + 1);
          if (e >= 0xdc00 && e <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (e - 0xdc00);
            j++;
          }
        }
        view.setUint32(p, c, true);
      }
    });
    return;
  }
  const src = d as Exclude<NumpyData, string[]>;
  if (lay.name === 'b1') {
    for (let i = 0; i < src.length; i++) out[offset + i * stride] = src[i] !== 0 ? 1 : 0;
    return;
  }
  if (stride === lay.itemsize && (LITTLE_ENDIAN || lay.itemsize === 1)) {
    out.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), offset);
    return;
  }
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const put = SETTERS[lay.name]!;
  for (let i = 0; i < src.length; i++) put(view, offset + i * stride, src[i]!);
}

const SETTERS: Record<string, (v: DataView, at: number, x: number | bigint) => void> = {
  u1: (v, at, x) => v.setUint8(at, x as number),
  i1: (v, at, x) => v.setInt8(at, x as number),
  u2: (v, at, x) => v.setUint16(at, x as number, true),
  i2: (v, at, x) => v.setInt16(at, x as number, true),
  u4: (v, at, x) => v.setUint32(at, x as number, true),
  i4: (v, at, x) => v.setInt32(at, x as number, true),
  f4: (v, at, x) => v.setFloat32(at, x as number, true),
  f8: (v, at, x) => v.setFloat64(at, x as number, true),
  i8: (v, at, x) => v.setBigInt64(at, x as bigint, true),
  u8: (v, at, x) => v.setBigUint64(at, x as bigint, true),
};

function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// ---- pickling --------------------------------------------------------------------------------

export function writeNumpy(w: PickleWriter, v: NumpyArray | NumpyRecords): void {
  w.beginValue();
  let data: Uint8Array;
  let writeDtype: () => void;
  if (v instanceof NumpyArray) {
    const lay = layout(v);
    data = new Uint8Array(lay.itemsize * v.length);
    fill(v, lay, data, 0, lay.itemsize);
    writeDtype = () => writeSimpleDtype(w, lay);
  } else {
    const fields: { name: string; lay: Layout; offset: number }[] = [];
    let itemsize = 0;
    for (const [name, col] of v.columns) {
      const lay = layout(col);
      fields.push({ name, lay, offset: itemsize });
      itemsize += lay.itemsize;
    }
    data = new Uint8Array(itemsize * v.length);
    v.columns.forEach(([, col], i) => fill(col, fields[i]!.lay, data, fields[i]!.offset, itemsize));
    writeDtype = () => writeStructDtype(w, fields, itemsize);
  }
  writeGlobal(w, 'numpy.core.multiarray', '_reconstruct');
  writeGlobal(w, 'numpy', 'ndarray');
  w.int32(0);
  w.op(OP.TUPLE1);
  w.bytes(B);
  w.op(OP.TUPLE3);
  w.op(OP.REDUCE);
  w.op(OP.MARK);
  w.int32(1);
  w.int(v.length);
  w.op(OP.TUPLE1);
  writeDtype();
  w.bool(false); // not Fortran order
  w.bytes(data);
  w.op(OP.TUPLE);
  w.op(OP.BUILD);
}

const B = new Uint8Array([0x62]); // b'b'
