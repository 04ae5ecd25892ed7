// Values that exist only while a pickle is being interpreted; `finalize` replaces them with plain ones.
import type { DType } from './dtype.js';
import type { NdArray } from './ndarray.js';

// A Python dict: any hashable keys, in insertion order. Entries are appended as SETITEM(S) come; a repeated
// key keeps its first position and its last value, which is what finalize's object/Map assignment gives.
export class PyDict {
  readonly keys: unknown[] = [];
  readonly values: unknown[] = [];

  get size(): number {
    return this.keys.length;
  }

  set(k: unknown, v: unknown): void {
    this.keys.push(k);
    this.values.push(v);
  }
}

export type GlobalKind =
  | 'reconstruct'
  | 'ndarray'
  | 'dtype'
  | 'scalar'
  | 'frombuffer'
  | 'encode'
  | 'set'
  | 'frozenset'
  | 'list'
  | 'dict'
  | 'tuple'
  | 'bytearray'
  | 'bytes';

// An allowlisted global: a name the decoder knows how to interpret, never something to call.
export class PyGlobal {
  constructor(
    readonly qualified: string,
    readonly kind: GlobalKind,
  ) {}
}

// A numpy.dtype(...) awaiting (or having had) its BUILD.
export class PyDtype {
  built = false;
  constructor(public desc: DType) {}
}

// numpy's _reconstruct(ndarray, ...) placeholder; BUILD fills `result`.
export class PendingArray {
  result: NdArray | null = null;
}
