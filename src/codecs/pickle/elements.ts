// Reads the elements of one numpy dtype out of raw array bytes: typed arrays (views when possible) and strings.
import { DecodeError } from '../codec.js';
import type { DType } from './dtype.js';

export type NumericData =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

type NumericCtor = {
  new (length: number): NumericData;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): NumericData;
};

const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const CTORS: Record<string, NumericCtor> = {
  b1: Uint8Array,
  i1: Int8Array,
  u1: Uint8Array,
  i2: Int16Array,
  u2: Uint16Array,
  i4: Int32Array,
  u4: Uint32Array,
  i8: BigInt64Array,
  u8: BigUint64Array,
  f2: Float32Array,
  f4: Float32Array,
  f8: Float64Array,
};

export function isNumeric(d: DType): boolean {
  return d.kind === 'b' || d.kind === 'i' || d.kind === 'u' || d.kind === 'f';
}

// `count` elements of dtype `d` starting at bytes[base], `stride` bytes apart. A view over `bytes` when the
// elements are packed, in host byte order and aligned; otherwise a copy.
export function readNumeric(d: DType, bytes: Uint8Array, base: number, stride: number, count: number): NumericData {
  const size = d.itemsize;
  const Ctor = CTORS[`${d.kind}${size}`];
  if (!Ctor) throw new DecodeError(`numpy dtype ${d.kind}${size} is not supported`);
  const little = d.byteorder !== '>';
  const packed = stride === size && (little === HOST_LITTLE || size === 1) && d.kind + size !== 'f2';
  const at = bytes.byteOffset + base;
  if (packed && at % size === 0) return new Ctor(bytes.buffer, at, count);
  const out = new Ctor(count);
  if (packed) {
    new Uint8Array(out.buffer).set(bytes.subarray(base, base + count * size));
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const get = getter(view, `${d.kind}${size}`, little);
  for (let i = 0, p = base; i < count; i++, p += stride) (out as { [i: number]: number | bigint })[i] = get(p);
  return out;
}

function getter(v: DataView, code: string, le: boolean): (p: number) => number | bigint {
  switch (code) {
    case 'b1':
    case 'u1':
      return (p) => v.getUint8(p);
    case 'i1':
      return (p) => v.getInt8(p);
    case 'i2':
      return (p) => v.getInt16(p, le);
    case 'u2':
      return (p) => v.getUint16(p, le);
    case 'i4':
      return (p) => v.getInt32(p, le);
    case 'u4':
      return (p) => v.getUint32(p, le);
    case 'i8':
      return (p) => v.getBigInt64(p, le);
    case 'u8':
      return (p) => v.getBigUint64(p, le);
    case 'f2':
      return (p) => half(v.getUint16(p, le));
    case 'f4':
      return (p) => v.getFloat32(p, le);
    default:
      return (p) => v.getFloat64(p, le);
  }
}

function half(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

// U<n>: UCS-4 code points, trailing NULs stripped (as numpy does).
export function readUnicode(d: DType, bytes: Uint8Array, base: number, stride: number, count: number): string[] {
  const chars = d.itemsize / 4;
  const le = d.byteorder !== '>';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<string>(count);
  const cps: number[] = [];
  for (let i = 0, p = base; i < count; i++, p += stride) {
    let n = chars;
    while (n > 0 && view.getUint32(p + (n - 1) * 4, le) === 0) n--;
    let s = '';
    cps.length = 0;
    for (let c = 0; c < n; c++) {
      const cp = view.getUint32(p + c * 4, le);
      if (cp > 0x10ffff) throw new DecodeError('numpy unicode array holds an invalid code point');
      cps.push(cp);
      if (cps.length === 4096) {
        s += String.fromCodePoint(...cps);
        cps.length = 0;
      }
    }
    out[i] = cps.length ? s + String.fromCodePoint(...cps) : s;
  }
  return out;
}

// S<n>: each element's bytes (Python gives `bytes`), trailing NULs stripped as numpy does; views over the input.
export function readBytes(d: DType, bytes: Uint8Array, base: number, stride: number, count: number): Uint8Array[] {
  const out = new Array<Uint8Array>(count);
  for (let i = 0, p = base; i < count; i++, p += stride) {
    let end = p + d.itemsize;
    while (end > p && bytes[end - 1] === 0) end--;
    out[i] = bytes.subarray(p, end);
  }
  return out;
}

// Unstructured V<n>: each element's raw bytes (copied).
export function readVoid(d: DType, bytes: Uint8Array, base: number, stride: number, count: number): Uint8Array[] {
  const out = new Array<Uint8Array>(count);
  for (let i = 0, p = base; i < count; i++, p += stride) out[i] = bytes.slice(p, p + d.itemsize);
  return out;
}
