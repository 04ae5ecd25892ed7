// Python pickle request bodies (application/service-pkl, application/xminds-pkl): decoded, never executed.
// Only numpy arrays/dtypes/scalars and builtin containers may be named; see globals.ts.
import { DecodeError } from '../codec.js';
import { resolveLimits, type PickleLimits } from './limits.js';
import { unpickle } from './unpickle.js';

export type { PickleLimits } from './limits.js';
export { NdArray, plainOf } from './ndarray.js';

// Values: null, booleans, numbers (BigInt beyond 2^53), strings, bytes (Uint8Array), arrays (lists, tuples,
// sets), objects (dicts with string keys; Map otherwise) and NdArray. Any bad input throws DecodeError.
export function decodePickle(bytes: Uint8Array, limits?: Partial<PickleLimits>): unknown {
  try {
    return unpickle(bytes, resolveLimits(bytes.length, limits));
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new DecodeError(`pickle: malformed input (${e instanceof Error ? e.message : String(e)})`);
  }
}
