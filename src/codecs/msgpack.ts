// MessagePack (application/msgpack) for JavaScript clients: the JSON data model in a binary form.
// Byte strings travel as msgpack bin (Uint8Array on both sides). In requests, a list of numbers may
// also come as a typed array in one extension (TYPED_ARRAYS: a client sends an id column or a
// Float32Array in one copy instead of one msgpack number each); it reads as the list it holds.
// Answers use no extension types, so any msgpack library reads them. Sizes are bounded by the
// body cap before decoding.
import { Decoder, Encoder, ExtensionCodec } from '@msgpack/msgpack';
import { DecodeError, type Codec } from './codec.js';

type TypedArrayOf = new (buffer: ArrayBuffer) => ArrayLike<number>;

// Extension type → little-endian element type (documented in docs/api-choices.md).
export const TYPED_ARRAYS: ReadonlyMap<number, TypedArrayOf> = new Map<number, TypedArrayOf>([
  [1, Uint8Array],
  [2, Int8Array],
  [3, Uint16Array],
  [4, Int16Array],
  [5, Uint32Array],
  [6, Int32Array],
  [7, Float32Array],
  [8, Float64Array],
]);

const extensions = new ExtensionCodec();
for (const [type, Kind] of TYPED_ARRAYS) {
  const size = (Kind as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  extensions.register({
    type,
    encode: () => null, // answers carry plain lists
    decode: (data) => {
      if (data.byteLength % size !== 0) throw new DecodeError(`msgpack extension ${type}: ${data.byteLength} bytes is not a whole number of ${size}-byte elements`);
      // A copy of exactly these bytes: the element type needs an aligned buffer of its own (`data`
      // may be a view into a larger, shared one: a Node Buffer's slice() would not copy). The
      // machine is little-endian, as the extension's elements are.
      const values = Array.from(new Kind(new Uint8Array(data).buffer));
      if (values.some((v) => !Number.isFinite(v))) throw new DecodeError(`msgpack extension ${type}: NaN or infinite values have no JSON form`);
      return values;
    },
  });
}

const encoder = new Encoder({ ignoreUndefined: true });
// Nesting deeper than a JSON body could sensibly hold is refused rather than recursed into.
const MAX_DEPTH = 200;

export const msgpackCodec: Codec = {
  mediaTypes: ['application/msgpack', 'application/x-msgpack'],
  compressible: true,
  decode(bytes) {
    let value: unknown;
    try {
      value = new Decoder({ extensionCodec: extensions, maxStrLength: bytes.length, maxBinLength: bytes.length, maxArrayLength: bytes.length, maxMapLength: bytes.length, maxExtLength: bytes.length }).decode(bytes);
    } catch (err) {
      if (err instanceof DecodeError) throw err;
      throw new DecodeError(`malformed msgpack: ${(err as Error).message}`);
    }
    if (depth(value, 0) > MAX_DEPTH) throw new DecodeError(`msgpack body nested deeper than ${MAX_DEPTH} levels`);
    return value;
  },
  encode(value) {
    return encoder.encode(value);
  },
};

function depth(v: unknown, d: number): number {
  if (d > MAX_DEPTH || typeof v !== 'object' || v === null || v instanceof Uint8Array) return d;
  let most = d;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    most = Math.max(most, depth(x, d + 1));
    if (most > MAX_DEPTH) break;
  }
  return most;
}
