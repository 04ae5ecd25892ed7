// Python pickle encoder (protocol 4) for responses to Python clients, which read them with `pickle.load`.
//
// JS value                         → Python object (opcodes)
// null, undefined                  → None
// boolean                          → bool (NEWTRUE/NEWFALSE)
// safe integer (not -0)            → int (BININT1/BININT2/BININT within int32, else LONG1)
// other number (-0, NaN, ±Inf, 2**60 …) → float (BINFLOAT, big-endian double)
// bigint                           → int (LONG1/LONG4, minimal two's complement, little-endian)
// string                           → str (SHORT_BINUNICODE/BINUNICODE/BINUNICODE8; lone surrogates kept, see utf8SurrogatePass)
// Uint8Array, Buffer               → bytes (SHORT_BINBYTES/BINBYTES/BINBYTES8)
// array                            → list (EMPTY_LIST, then APPENDS in batches of 1000; holes and undefined → None)
// plain object, Map                → dict (EMPTY_DICT, then SETITEMS in batches of 1000; undefined values skipped as
//                                    JSON does; Map keys may be strings, numbers or bigints)
// NumpyArray, NumpyRecords         → numpy.ndarray (see encode-numpy.ts)
// other object with toJSON()       → whatever toJSON() returns (Date → ISO string), as JSON.stringify does
// other object                     → dict of its own enumerable properties, as JSON.stringify does
// Functions, symbols, Sets, other typed arrays (wrap them in NumpyArray) and cycles throw a TypeError.
// Shared, acyclic references are simply written twice: no memo, as JSON-like values need none.
// Output is framed like CPython's (FRAME per ~64 KiB), so `pickle.load` on a stream reads it efficiently.
import { NumpyArray, NumpyRecords, writeNumpy } from './encode-numpy.js';
import { OP, PickleWriter } from './encode-writer.js';

export { NumpyArray, NumpyRecords, type NumpyColumn, type NumpyData, type NumpyKind } from './encode-numpy.js';

const BATCH = 1000; // pickle's _BATCHSIZE

export function encodePickle(value: unknown): Uint8Array {
  const w = new PickleWriter(4);
  new Encoder(w).value(value);
  return w.finish();
}

class Encoder {
  // Containers being written, to refuse cycles.
  private readonly open = new Set<object>();

  constructor(private readonly w: PickleWriter) {}

  value(v: unknown): void {
    const w = this.w;
    w.beginValue();
    switch (typeof v) {
      case 'undefined':
        return w.none();
      case 'boolean':
        return w.bool(v);
      case 'number':
        return this.number(v);
      case 'bigint':
        return w.bigint(v);
      case 'string':
        return w.string(v);
      case 'object':
        return v === null ? w.none() : this.object(v);
      default:
        throw new TypeError(`cannot pickle a ${typeof v}`);
    }
  }

  private number(v: number): void {
    // -0 stays a float so Python sees -0.0; 0 is the int 0.
    if (Number.isSafeInteger(v) && !Object.is(v, -0)) this.w.int(v);
    else this.w.float(v);
  }

  private object(v: object): void {
    if (v instanceof NumpyArray || v instanceof NumpyRecords) return writeNumpy(this.w, v);
    if (v instanceof Uint8Array) return this.w.bytes(v);
    if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) {
      throw new TypeError(`cannot pickle a ${v.constructor.name}: wrap typed arrays in NumpyArray`);
    }
    if (v instanceof Set || v instanceof WeakMap || v instanceof WeakSet || v instanceof Promise) {
      throw new TypeError(`cannot pickle a ${v.constructor.name}`);
    }
    if (this.open.has(v)) throw new TypeError('cannot pickle a cyclic structure');
    this.open.add(v);
    if (Array.isArray(v)) this.list(v);
    else if (v instanceof Map) this.map(v);
    else if (typeof (v as { toJSON?: unknown }).toJSON === 'function') this.value((v as { toJSON(key: string): unknown }).toJSON(''));
    else this.record(v as Record<string, unknown>);
    this.open.delete(v);
  }

  // As CPython's C pickler (batch_list_exact): a one-element list is APPEND, anything longer is
  // MARK … APPENDS per batch of 1000, even when the last batch holds one item.
  private list(items: unknown[]): void {
    const w = this.w;
    w.op(OP.EMPTY_LIST);
    if (items.length === 1) {
      this.value(items[0]);
      return w.op(OP.APPEND);
    }
    for (let start = 0; start < items.length; start += BATCH) {
      const end = Math.min(start + BATCH, items.length);
      w.op(OP.MARK);
      for (let i = start; i < end; i++) this.value(items[i]);
      w.op(OP.APPENDS);
    }
  }

  private record(o: Record<string, unknown>): void {
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v !== undefined) {
        keys.push(k);
        values.push(v);
      }
    }
    this.dict(keys, values);
  }

  private map(m: Map<unknown, unknown>): void {
    const keys: unknown[] = [];
    const values: unknown[] = [];
    for (const [k, v] of m) {
      const t = typeof k;
      if (t !== 'string' && t !== 'number' && t !== 'bigint')
        throw new TypeError(`cannot pickle a Map key of type ${k === null ? 'null' : t}`);
      if (v !== undefined) {
        keys.push(k);
        values.push(v);
      }
    }
    this.dict(keys, values);
  }

  // Entries whose value is undefined were left out by the caller. Batched like lists: SETITEM for
  // a one-entry dict, else MARK … SETITEMS per 1000 entries.
  private dict(keys: unknown[], values: unknown[]): void {
    const w = this.w;
    w.op(OP.EMPTY_DICT);
    if (keys.length === 1) {
      this.value(keys[0]);
      this.value(values[0]);
      return w.op(OP.SETITEM);
    }
    for (let start = 0; start < keys.length; start += BATCH) {
      const end = Math.min(start + BATCH, keys.length);
      w.op(OP.MARK);
      for (let i = start; i < end; i++) {
        this.value(keys[i]);
        this.value(values[i]);
      }
      w.op(OP.SETITEMS);
    }
  }
}
