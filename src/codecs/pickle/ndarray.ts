// A decoded numpy array, and the conversion of decoded pickle values to what a JSON body would hold.
import { isColumnar } from '../../contract/columnar.js';
import { DecodeError, protoKey } from '../codec.js';
import type { DType } from './dtype.js';
import { isNumeric, readBytes, readNumeric, readUnicode, readVoid, type NumericData } from './elements.js';

export type { DType, DField, DTypeKind, ByteOrder } from './dtype.js';
export type { NumericData } from './elements.js';

// Numeric and bool arrays: a typed array (bool as Uint8Array); U: strings; S: bytes; O: the objects; unstructured V: raw bytes.
export type NdData = NumericData | string[] | unknown[] | Uint8Array[];

export class NdArray {
  constructor(
    readonly dtype: DType,
    readonly shape: number[],
    // Memory order of `data` (and of every column).
    readonly order: 'C' | 'F',
    // Elements in memory order; null for structured arrays, which hold `columns` instead.
    readonly data: NdData | null,
    // Structured arrays: one column per field, each with this array's shape and order.
    readonly columns: Map<string, NdArray> | null = null,
  ) {}

  // Decodes `shape` elements of `dtype` from raw bytes (records `stride` bytes apart, starting at `base`).
  static fromBytes(dtype: DType, shape: number[], order: 'C' | 'F', bytes: Uint8Array, base = 0, stride = dtype.itemsize): NdArray {
    const count = sizeOf(shape);
    if (count > 0 && base + (count - 1) * stride + dtype.itemsize > bytes.length) throw new DecodeError('numpy array data is too short');
    if (dtype.fields) {
      const columns = new Map<string, NdArray>();
      for (const f of dtype.fields) columns.set(f.name, NdArray.fromBytes(f.dtype, shape, order, bytes, base + f.offset, stride));
      return new NdArray(dtype, shape, order, null, columns);
    }
    let data: NdData;
    if (isNumeric(dtype)) data = readNumeric(dtype, bytes, base, stride, count);
    else if (dtype.kind === 'U') data = readUnicode(dtype, bytes, base, stride, count);
    else if (dtype.kind === 'S') data = readBytes(dtype, bytes, base, stride, count);
    else if (dtype.kind === 'V') data = readVoid(dtype, bytes, base, stride, count);
    else throw new DecodeError('numpy object arrays carry a list, not bytes');
    return new NdArray(dtype, shape, order, data);
  }

  get size(): number {
    return sizeOf(this.shape);
  }

  // The plain value of the element at memory index i.
  item(i: number): unknown {
    if (this.columns) {
      const row: Record<string, unknown> = {};
      for (const [name, col] of this.columns) setKey(row, name, col.item(i));
      return row;
    }
    const v = (this.data as ArrayLike<unknown>)[i];
    switch (this.dtype.kind) {
      case 'b':
        return v !== 0;
      case 'i':
      case 'u':
        return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v;
      case 'O':
        return plainOf(v);
      default:
        return v;
    }
  }

  // What a JSON body would hold: 0-d → the element, 1-d → an array, n-d → nested arrays in index order.
  toPlain(): unknown {
    const shape = this.shape;
    if (shape.length === 0) return this.item(0);
    const strides = new Array<number>(shape.length);
    let s = 1;
    if (this.order === 'C') {
      for (let k = shape.length - 1; k >= 0; k--) {
        strides[k] = s;
        s *= shape[k] as number;
      }
    } else {
      for (let k = 0; k < shape.length; k++) {
        strides[k] = s;
        s *= shape[k] as number;
      }
    }
    const build = (level: number, offset: number): unknown[] => {
      const n = shape[level] as number;
      const stride = strides[level] as number;
      const out = new Array<unknown>(n);
      const last = level === shape.length - 1;
      for (let i = 0; i < n; i++) out[i] = last ? this.item(offset + i * stride) : build(level + 1, offset + i * stride);
      return out;
    };
    return build(0, 0);
  }
}

export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

// Sets a key of a dict or row; `__proto__` is refused (see protoKey).
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') throw protoKey();
  obj[key] = value;
}

// Deep-converts a decoded value: arrays (n-d, structured → rows) and numpy scalars to JSON-like values.
// Dicts with non-string keys stay Maps; bytes stay Uint8Array; big integers stay BigInt.
export function plainOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || isColumnar(value)) return value;
  if (value instanceof NdArray) return value.toPlain();
  if (Array.isArray(value)) return value.map(plainOf);
  if (value instanceof Uint8Array) return value;
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [k, v] of value) out.set(plainOf(k), plainOf(v));
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) setKey(out, k, plainOf((value as Record<string, unknown>)[k]));
  return out;
}
