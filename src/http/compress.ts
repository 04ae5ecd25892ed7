// Response compression: JSON and msgpack answers of at least COMPRESS_MIN bytes are gzipped when the
// client accepts gzip. Pickle answers never are (codec.compressible): the Python clients read them with
// `pickle.load` on the raw stream, which fails on short decoded reads. Level 1: most of the size gain for
// a fraction of the CPU, done inline (a 1 MB listing takes a few ms).
import { constants, gzipSync } from 'node:zlib';
import type { Codec } from '../codecs/codec.js';

export const COMPRESS_MIN = 16 * 1024;

const VARY = { vary: 'accept-encoding' };

export function acceptsGzip(header: string): boolean {
  if (header === '') return false;
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

// The body and headers to send: compressed, or as they were (with Vary when the size allowed it).
export function compressed(
  body: Uint8Array | string,
  headers: Record<string, string> | undefined,
  codec: Codec,
  acceptEncoding: string,
): { body: Uint8Array | string; headers: Record<string, string> | undefined } {
  if (!codec.compressible) return { body, headers };
  const size = typeof body === 'string' ? body.length : body.byteLength;
  // Small answers never depend on Accept-Encoding: no Vary, no extra header on the hot paths.
  if (size < COMPRESS_MIN) return { body, headers };
  if (!acceptsGzip(acceptEncoding)) return { body, headers: headers ? { ...headers, ...VARY } : VARY };
  return { body: gzipSync(body, { level: constants.Z_BEST_SPEED }), headers: { ...headers, ...VARY, 'content-encoding': 'gzip' } };
}
