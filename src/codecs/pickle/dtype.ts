// numpy dtype descriptors as the pickle decoder understands them (no subarrays, no object fields).
import { DecodeError } from '../codec.js';

export type DTypeKind = 'b' | 'i' | 'u' | 'f' | 'U' | 'S' | 'V' | 'O';
export type ByteOrder = '<' | '>' | '|';

export interface DField {
  readonly name: string;
  readonly dtype: DType;
  readonly offset: number;
}

export interface DType {
  readonly kind: DTypeKind;
  // Bytes per element (U<n> is 4n).
  readonly itemsize: number;
  // '|' for byte-order-free types (1-byte numbers, S, V, O).
  readonly byteorder: ByteOrder;
  // Structured (V) dtypes: the named fields in declaration order.
  readonly fields: readonly DField[] | null;
}

// Per-descriptor sizes the decoder bounds: nesting depth, values per element once expanded (a structured
// element counts itself plus its fields), and bytes the fields' columns occupy once decoded (overlapping
// fields count each time).
export interface DTypeStats {
  readonly depth: number;
  readonly cells: number;
  readonly leafBytes: number;
}

const STATS = new WeakMap<DType, DTypeStats>();

export function statsOf(d: DType): DTypeStats {
  return STATS.get(d) ?? { depth: 1, cells: 1, leafBytes: d.itemsize };
}

function make(d: DType, stats?: DTypeStats): DType {
  if (stats) STATS.set(d, stats);
  return d;
}

const FIXED_SIZES: Record<string, readonly number[]> = {
  b: [1],
  i: [1, 2, 4, 8],
  u: [1, 2, 4, 8],
  f: [2, 4, 8],
  O: [4, 8],
};

export function hasByteOrder(kind: DTypeKind, itemsize: number): boolean {
  return (kind === 'i' || kind === 'u' || kind === 'f' || kind === 'U') && itemsize > 1;
}

// The dtype from numpy.dtype's first argument as pickled ('u4', 'U16', 'V20', 'O8'...), native order.
export function parseTypeString(spec: unknown): DType {
  if (typeof spec !== 'string') throw new DecodeError('numpy dtype: type string expected');
  const m = /^([<>|=]?)([biufcUSVOMm])(\d{1,10})$/.exec(spec);
  if (!m) throw new DecodeError(`numpy dtype ${JSON.stringify(spec.slice(0, 40))} is not supported`);
  const kind = m[2] as string;
  const n = Number(m[3]);
  if (kind === 'c' || kind === 'M' || kind === 'm') throw new DecodeError(`numpy dtype ${spec} is not supported`);
  const k = kind as DTypeKind;
  const itemsize = k === 'U' ? n * 4 : n;
  const fixed = FIXED_SIZES[k];
  if (fixed && !fixed.includes(itemsize)) throw new DecodeError(`numpy dtype ${spec} is not supported`);
  if (!Number.isSafeInteger(itemsize)) throw new DecodeError(`numpy dtype ${spec} is too large`);
  const order = m[1] === '>' ? '>' : '<';
  return { kind: k, itemsize, byteorder: hasByteOrder(k, itemsize) ? order : '|', fields: null };
}

// numpy's dtype.str: '<u4', '|b1', '<U16', '|V20', '|O'.
export function dtypeStr(d: DType): string {
  if (d.kind === 'O') return '|O';
  return `${d.byteorder}${d.kind}${d.kind === 'U' ? d.itemsize / 4 : d.itemsize}`;
}

export interface DTypeState {
  byteorder: unknown;
  subarray: unknown;
  names: unknown;
  fields: unknown;
  elsize: unknown;
}

// Applies a dtype __setstate__ (already split into parts) to the descriptor made from the type string.
export function withState(base: DType, s: DTypeState, fieldDtype: (v: unknown) => DType, maxDepth: number, maxCells: number): DType {
  if (s.subarray !== null) throw new DecodeError('numpy dtype: subarray dtypes are not supported');
  let byteorder: ByteOrder;
  if (s.byteorder === '<' || s.byteorder === '=') byteorder = '<';
  else if (s.byteorder === '>') byteorder = '>';
  else if (s.byteorder === '|') byteorder = '|';
  else throw new DecodeError('numpy dtype: bad byte order');
  let itemsize = base.itemsize;
  if (s.elsize !== -1) {
    if (typeof s.elsize !== 'number' || !Number.isSafeInteger(s.elsize) || s.elsize < 0)
      throw new DecodeError('numpy dtype: bad element size');
    if (base.kind === 'U' || base.kind === 'S' || base.kind === 'V') itemsize = s.elsize;
    else if (s.elsize !== base.itemsize) throw new DecodeError('numpy dtype: element size does not match the type');
  }
  if (base.kind === 'U' && itemsize % 4 !== 0) throw new DecodeError('numpy dtype: bad unicode element size');
  let fields: DField[] | null = null;
  let depth = 1;
  let cells = 1;
  let leafBytes = 0;
  if (s.names !== null || s.fields !== null) {
    if (base.kind !== 'V') throw new DecodeError('numpy dtype: fields on a non-void dtype');
    if (!Array.isArray(s.names) || !(s.fields instanceof Map)) throw new DecodeError('numpy dtype: bad field names');
    fields = [];
    const seen = new Set<string>();
    for (const name of s.names) {
      if (typeof name !== 'string' || seen.has(name)) throw new DecodeError('numpy dtype: bad field name');
      seen.add(name);
      const entry: unknown = s.fields.get(name);
      if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) throw new DecodeError(`numpy dtype: bad field ${name}`);
      const fd = fieldDtype(entry[0]);
      const offset: unknown = entry[1];
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0 || offset + fd.itemsize > itemsize) {
        throw new DecodeError(`numpy dtype: field ${name} lies outside the record`);
      }
      if (fd.kind === 'O') throw new DecodeError('numpy dtype: object fields are not supported');
      const st = statsOf(fd);
      depth = Math.max(depth, st.depth + 1);
      cells += st.cells;
      leafBytes += st.leafBytes;
      if (depth > maxDepth) throw new DecodeError('numpy dtype: nesting too deep');
      if (cells > maxCells) throw new DecodeError('numpy dtype: too many fields');
      fields.push({ name, dtype: fd, offset });
    }
  }
  const order = hasByteOrder(base.kind, itemsize) ? (byteorder === '|' ? '<' : byteorder) : '|';
  const d: DType = { kind: base.kind, itemsize, byteorder: order, fields };
  return make(d, fields ? { depth, cells, leafBytes } : undefined);
}
