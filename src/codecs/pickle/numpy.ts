// numpy reconstruction, interpreted rather than executed: dtype(...)+BUILD, _reconstruct(...)+BUILD,
// scalar(dtype, bytes) and _frombuffer(buffer, dtype, shape, order).
import { Buffer } from 'node:buffer';
import { DecodeError } from '../codec.js';
import { parseTypeString, statsOf, withState, type DType } from './dtype.js';
import type { Budget } from './limits.js';
import { NdArray, sizeOf } from './ndarray.js';
import { PendingArray, PyDict, PyDtype, PyGlobal } from './pyobjects.js';

const MAX_NDIM = 64;

// numpy.dtype(typestring, align, copy)
export function makeDtype(args: unknown[]): PyDtype {
  if (args.length < 1 || args.length > 3) throw new DecodeError('numpy dtype: bad arguments');
  return new PyDtype(parseTypeString(args[0]));
}

// dtype.__setstate__((3|4, byteorder, subarray, names, fields, elsize, alignment, flags[, metadata]))
export function buildDtype(d: PyDtype, state: unknown, budget: Budget): void {
  if (d.built) throw new DecodeError('numpy dtype: state set twice');
  if (!Array.isArray(state)) throw new DecodeError('numpy dtype: bad state');
  const version: unknown = state[0];
  if (!((version === 3 && state.length === 8) || (version === 4 && state.length === 9))) {
    throw new DecodeError('numpy dtype: unsupported state version');
  }
  const fields: unknown = state[4];
  d.desc = withState(
    d.desc,
    {
      byteorder: state[1],
      subarray: state[2],
      names: state[3],
      fields: fields instanceof PyDict ? new Map(fields.keys.map((k, i) => [k, fields.values[i]])) : fields,
      elsize: state[5],
    },
    dtypeOf,
    budget.limits.maxDepth,
    budget.limits.maxElements,
  );
  d.built = true;
}

export function dtypeOf(v: unknown): DType {
  if (!(v instanceof PyDtype)) throw new DecodeError('numpy: dtype expected');
  return v.desc;
}

// _reconstruct(ndarray, shape, typecode): an empty array BUILD will fill.
export function reconstruct(args: unknown[]): PendingArray {
  if (args.length !== 3 || !(args[0] instanceof PyGlobal) || args[0].kind !== 'ndarray') {
    throw new DecodeError('numpy _reconstruct: only numpy.ndarray can be reconstructed');
  }
  return new PendingArray();
}

// ndarray.__setstate__(([version,] shape, dtype, is_fortran, rawdata_or_list))
export function buildArray(p: PendingArray, state: unknown, budget: Budget): void {
  if (p.result) throw new DecodeError('numpy ndarray: state set twice');
  if (!Array.isArray(state) || (state.length !== 5 && state.length !== 4)) throw new DecodeError('numpy ndarray: bad state');
  const [shapeV, dtypeV, fortranV, raw] = state.length === 5 ? state.slice(1) : state;
  if (state.length === 5 && state[0] !== 1 && state[0] !== 0) throw new DecodeError('numpy ndarray: unsupported state version');
  const dtype = dtypeOf(dtypeV);
  const shape = shapeOf(shapeV, budget);
  if (typeof fortranV !== 'boolean' && fortranV !== 0 && fortranV !== 1) throw new DecodeError('numpy ndarray: bad order flag');
  const order = fortranV === true || fortranV === 1 ? 'F' : 'C';
  const count = sizeOf(shape);
  if (dtype.kind === 'O') {
    if (!Array.isArray(raw) || raw.length !== count) throw new DecodeError('numpy object array: list does not match the shape');
    budget.chargeArray(count * 8);
    budget.chargeCopy(count);
    p.result = new NdArray(dtype, shape, order, raw.slice());
    return;
  }
  p.result = fromRaw(dtype, shape, order, rawBytes(raw), budget);
}

// scalar(dtype, raw) → number / bigint / bool / string (a 0-d NdArray for void scalars).
export function scalar(args: unknown[], budget: Budget): unknown {
  if (args.length !== 2) throw new DecodeError('numpy scalar: bad arguments');
  const dtype = dtypeOf(args[0]);
  if (dtype.kind === 'O') return args[1];
  const arr = fromRaw(dtype, [], 'C', rawBytes(args[1]), budget);
  return dtype.kind === 'V' ? arr : arr.item(0);
}

// _frombuffer(buffer, dtype, shape, order)
export function frombuffer(args: unknown[], budget: Budget): NdArray {
  if (args.length !== 4) throw new DecodeError('numpy _frombuffer: bad arguments');
  const dtype = dtypeOf(args[1]);
  if (dtype.kind === 'O') throw new DecodeError('numpy _frombuffer: object arrays are not supported');
  const order = args[3];
  if (order !== 'C' && order !== 'F') throw new DecodeError('numpy _frombuffer: bad order');
  return fromRaw(dtype, shapeOf(args[2], budget), order, rawBytes(args[0]), budget);
}

function fromRaw(dtype: DType, shape: number[], order: 'C' | 'F', raw: Uint8Array, budget: Budget): NdArray {
  const count = sizeOf(shape);
  if (count * dtype.itemsize !== raw.length) throw new DecodeError('numpy: data size does not match the shape and dtype');
  const stats = statsOf(dtype);
  budget.chargeArray(count * stats.leafBytes);
  budget.chargeCopy(count * stats.cells);
  return NdArray.fromBytes(dtype, shape, order, raw);
}

function rawBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  // Python 2 pickles carry raw data as a latin1 str.
  if (typeof v === 'string') {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: latin1 is the range \u0000-\u00ff, control characters included
    if (/[^\u0000-\u00ff]/.test(v)) throw new DecodeError('numpy: raw data string is not latin1');
    const b = Buffer.from(v, 'latin1');
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }
  throw new DecodeError('numpy: raw data must be bytes');
}

// A shape tuple; every prefix product is bounded, so nested plain arrays stay bounded too.
function shapeOf(v: unknown, budget: Budget): number[] {
  if (!Array.isArray(v) || v.length > MAX_NDIM) throw new DecodeError('numpy: bad shape');
  const shape: number[] = [];
  let n = 1;
  for (const d of v) {
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) throw new DecodeError('numpy: bad shape');
    if (d !== 0) {
      n *= d;
      if (n > budget.limits.maxElements) throw new DecodeError('numpy: array has too many elements');
    }
    shape.push(d);
  }
  return shape;
}
