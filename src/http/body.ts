// Request-body decompression with an output cap. Content-Encoding is advisory: some clients label
// zlib streams as gzip, so the magic bytes decide.
import { gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { promisify } from 'node:util';
import { wrongData } from '../errors/api-error.js';

const gunzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gunzip);
const inflateAsync = promisify<Buffer, ZlibOptions, Buffer>(inflate);
const inflateRawAsync = promisify<Buffer, ZlibOptions, Buffer>(inflateRaw);

const ENCODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'zlib']);

export function needsDecompression(contentEncoding: string): boolean {
  const enc = contentEncoding.trim().toLowerCase();
  if (enc === '' || enc === 'identity') return false;
  if (!ENCODINGS.has(enc)) {
    throw wrongData('WRONG_PARAMETER', `Content-Encoding ${JSON.stringify(contentEncoding)} is not supported: use gzip or deflate`);
  }
  return true;
}

export async function decompress(body: Uint8Array, maxOutput: number): Promise<Uint8Array> {
  if (body.length === 0) return body;
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const opts: ZlibOptions = { maxOutputLength: maxOutput };
  const b0 = buf[0]!;
  const b1 = buf[1] ?? 0;
  const run = b0 === 0x1f && b1 === 0x8b ? gunzipAsync : (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0 ? inflateAsync : inflateRawAsync;
  try {
    return await run(buf, opts);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw wrongData('WRONG_PARAMETER', `request body decompresses to more than ${maxOutput} bytes`);
    }
    throw wrongData('WRONG_DATA_TYPE', `request body could not be decompressed: ${(err as Error).message}`);
  }
}
