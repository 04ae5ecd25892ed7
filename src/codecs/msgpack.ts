// MessagePack (application/msgpack) for JavaScript clients: the JSON data model in a binary form.
// Byte strings travel as msgpack bin (Uint8Array on both sides). Typed arrays travel as the extension
// types msgpack-lite defined for them (0x11 Int8Array, 0x12 Uint8Array, 0x13 Int16Array, 0x14
// Uint16Array, 0x15 Int32Array, 0x16 Uint32Array, 0x17 Float32Array, 0x18 Float64Array; payload: the
// elements' little-endian bytes): in requests they become lists of numbers (what a JSON body holds), in
// answers any typed array is written that way. Other extension types (the timestamp included) are refused.
// Sizes are bounded by the body cap before decoding.
import { Decoder, Encoder, ExtData, ExtensionCodec } from '@msgpack/msgpack';
import { DecodeError, MAX_BODY_DEPTH, tooDeep, type Codec } from './codec.js';

type Typed = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type TypedCtor = { new (buffer: ArrayBuffer): Typed; readonly BYTES_PER_ELEMENT: number; readonly name: string };

const TYPED: readonly [number, TypedCtor][] = [
  [0x11, Int8Array],
  [0x12, Uint8Array],
  [0x13, Int16Array],
  [0x14, Uint16Array],
  [0x15, Int32Array],
  [0x16, Uint32Array],
  [0x17, Float32Array],
  [0x18, Float64Array],
];
const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// Marks a decoded typed array, so the walk below turns it into a list.
class TypedList {
  constructor(readonly values: Typed) {}
}

const extensions = new ExtensionCodec();
extensions.register({
  type: -1,
  encode: () => null, // Dates are written as JSON writes them (strings, by the services)
  decode: () => {
    throw new DecodeError('msgpack timestamps are not accepted: send seconds as a number');
  },
});
for (const [type, Ctor] of TYPED) {
  extensions.register({
    type,
    // Uint8Array stays bin; only exact constructors are matched (a Buffer is a Uint8Array).
    encode: (v) => (Ctor !== Uint8Array && v instanceof Ctor && v.constructor === Ctor ? littleEndian(v as Typed) : null),
    decode: (data) => {
      if (data.byteLength % Ctor.BYTES_PER_ELEMENT !== 0)
        throw new DecodeError(`msgpack ${Ctor.name} extension: length not a multiple of ${Ctor.BYTES_PER_ELEMENT}`);
      // A copy of exactly these bytes, aligned and ours: data may be a view into a larger buffer, and a
      // Node Buffer's slice() would not copy.
      const copy = new Uint8Array(data);
      if (!HOST_LITTLE) swap(copy, Ctor.BYTES_PER_ELEMENT);
      return new TypedList(new Ctor(copy.buffer as ArrayBuffer));
    },
  });
}

const encoder = new Encoder({ ignoreUndefined: true, extensionCodec: extensions });

export const msgpackCodec: Codec = {
  mediaTypes: ['application/msgpack', 'application/x-msgpack'],
  compressible: true,
  decode(bytes) {
    let value: unknown;
    try {
      const n = bytes.length;
      value = new Decoder({
        maxStrLength: n,
        maxBinLength: n,
        maxArrayLength: n,
        maxMapLength: n,
        maxExtLength: n,
        extensionCodec: extensions,
      }).decode(bytes);
    } catch (err) {
      if (err instanceof DecodeError) throw err;
      throw new DecodeError(`malformed msgpack: ${(err as Error).message}`);
    }
    return plain(value);
  },
  encode(value) {
    return encoder.encode(value);
  },
};

// Typed arrays to lists; unknown extensions refused; nesting bounded. The decoder itself keeps its own
// stack (no recursion), and so does this walk: containers still to visit, with their depth.
function plain(root: unknown): unknown {
  const top = leaf(root);
  if (top !== NOT_LEAF) return top;
  const todo: [Record<string, unknown> | unknown[], number][] = [[root as Record<string, unknown> | unknown[], 1]];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const [node, depth] = next;
    const keys = Array.isArray(node) ? undefined : Object.keys(node);
    const n = keys ? keys.length : (node as unknown[]).length;
    for (let k = 0; k < n; k++) {
      const key = keys ? keys[k]! : k;
      const v = (node as Record<string | number, unknown>)[key];
      const done = leaf(v);
      if (done !== NOT_LEAF) (node as Record<string | number, unknown>)[key] = done;
      else if (depth >= MAX_BODY_DEPTH) throw tooDeep('msgpack body');
      else todo.push([v as Record<string, unknown> | unknown[], depth + 1]);
    }
  }
  return root;
}

const NOT_LEAF = Symbol('container');

// What a value becomes when it holds no further values; NOT_LEAF for an array or map.
function leaf(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return v;
  if (v instanceof TypedList) return Array.from(v.values);
  if (v instanceof ExtData) throw new DecodeError(`msgpack extension type ${v.type} is not accepted`);
  return NOT_LEAF;
}

function littleEndian(v: Typed): Uint8Array {
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
  if (!HOST_LITTLE) swap(bytes, v.BYTES_PER_ELEMENT);
  return bytes;
}

function swap(bytes: Uint8Array, size: number): void {
  if (size === 1) return;
  for (let p = 0; p < bytes.length; p += size) bytes.subarray(p, p + size).reverse();
}
