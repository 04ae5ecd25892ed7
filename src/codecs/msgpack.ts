// MessagePack (application/msgpack) for JavaScript clients: the JSON data model in a binary form.
// Byte strings travel as msgpack bin (Uint8Array on both sides); no extension types are read or
// written. Sizes are bounded by the body cap before decoding.
import { Decoder, Encoder } from '@msgpack/msgpack';
import { DecodeError, type Codec } from './codec.js';

const encoder = new Encoder({ ignoreUndefined: true });
// Nesting deeper than a JSON body could sensibly hold is refused rather than recursed into.
const MAX_DEPTH = 200;

export const msgpackCodec: Codec = {
  mediaTypes: ['application/msgpack', 'application/x-msgpack'],
  compressible: true,
  decode(bytes) {
    let value: unknown;
    try {
      value = new Decoder({ maxStrLength: bytes.length, maxBinLength: bytes.length, maxArrayLength: bytes.length, maxMapLength: bytes.length, maxExtLength: 0 }).decode(bytes);
    } catch (err) {
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
