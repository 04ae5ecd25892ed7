// Python pickle (application/service-pkl; existing clients send application/xminds-pkl) for the
// Python clients: requests decoded without executing anything (codecs/pickle/), answers pickled
// with protocol 4 and never compressed (those clients fail on compressed pickle streams).
import { DecodeError, type Codec } from './codec.js';
import { decodePickle } from './pickle/decode.js';
import { encodePickle } from './pickle/encode.js';
import { withNumpyArrays } from './pickle/numpy-answers.js';
import { plainOf } from './pickle/ndarray.js';
import { StructuredColumns } from './pickle/columnar.js';

export const pickleCodec: Codec = {
  mediaTypes: ['application/service-pkl', 'application/xminds-pkl'],
  compressible: false,
  decode(bytes, columnar) {
    // Numpy arrays become what a JSON body would hold, except structured arrays in the fields the route
    // reads as columnar bodies (and the `array` of each `*_m2m` entry there). The decoded views share `bytes`,
    // which nothing reuses after the request.
    const value = decodePickle(bytes);
    if (columnar) withColumnar(value, columnar);
    return jsonSafe(plainOf(value));
  },
  encode(value) {
    return encodePickle(withNumpyArrays(value));
  },
};

function withColumnar(value: unknown, fields: readonly string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Map) return;
  const body = value as Record<string, unknown>;
  for (const f of fields) {
    const v = body[f];
    if (StructuredColumns.accepts(v)) body[f] = new StructuredColumns(v);
    else if (Array.isArray(v) && f.endsWith('_m2m')) {
      for (const entry of v) {
        if (typeof entry !== 'object' || entry === null || Array.isArray(entry) || entry instanceof Map) continue;
        const e = entry as Record<string, unknown>;
        if (StructuredColumns.accepts(e.array)) e.array = new StructuredColumns(e.array);
      }
    }
  }
}

// 64-bit integers beyond 2^53 arrive as BigInt: as decimal text they reach the same checks a JSON
// body's values do (an id type that takes them, or a WrongData), never a serialiser's TypeError.
function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) v[k] = jsonSafe(v[k]);
    return v;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, x] of v) {
      if (typeof key !== 'string' && typeof key !== 'number') throw new DecodeError('a dict key is neither a string nor a number');
      out[String(key)] = jsonSafe(x);
    }
    return out;
  }
  if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !(v instanceof StructuredColumns)) {
    const o = v as Record<string, unknown>;
    for (const key of Object.keys(o)) o[key] = jsonSafe(o[key]);
  }
  return v;
}
