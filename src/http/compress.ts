// gzip for large JSON and msgpack answers when the client accepts it: bulk listings shrink several
// times over. Pickle answers are never compressed (the Python clients fail on compressed pickle
// streams, spec/binary-clients.md §5): codecs say which they are (Codec.compressible).
import { promisify } from 'node:util';
import { constants, gzip } from 'node:zlib';
import type { Codec } from '../codecs/codec.js';

const gzipAsync = promisify(gzip);

// Below this an answer goes as it is: compressing saves little and costs a trip to the thread pool.
export const COMPRESS_MIN_BYTES = 16 * 1024;

// Whether an Accept-Encoding header admits gzip (by name, x-gzip or *, with a q-value above 0).
export function acceptsGzip(header: string): boolean {
  if (header === '') return false;
  let gzipQ: number | undefined, anyQ: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') gzipQ = Number.isFinite(q) ? q : 0;
    else if (coding === '*') anyQ = Number.isFinite(q) ? q : 0;
  }
  return (gzipQ ?? anyQ ?? 0) > 0;
}

export interface Compressible {
  status: number;
  headers: Record<string, string> | undefined;
  body: Uint8Array | string;
}

// The answer gzip-compressed, with Content-Encoding and Vary, when the codec, size and header allow.
export function compressed<T extends Compressible>(out: T, codec: Codec, acceptEncoding: string): T | Promise<T> {
  if (!codec.compressible || out.status === 204) return out;
  const size =
    typeof out.body === 'string' ? (out.body.length < COMPRESS_MIN_BYTES / 3 ? 0 : Buffer.byteLength(out.body)) : out.body.byteLength;
  if (size < COMPRESS_MIN_BYTES) return out;
  const vary = { ...out.headers, vary: 'Accept-Encoding' };
  if (!acceptsGzip(acceptEncoding)) return { ...out, headers: vary };
  // Level 1: most of the size gain for a fraction of the CPU.
  return gzipAsync(out.body, { level: constants.Z_BEST_SPEED }).then((body) => ({
    ...out,
    headers: { ...vary, 'content-encoding': 'gzip' },
    body,
  }));
}
