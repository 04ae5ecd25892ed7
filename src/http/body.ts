// Request-body decompression, streamed with an output cap. Content-Encoding is advisory: some
// clients label zlib streams as gzip, so the magic bytes decide.
import { createGunzip, createInflate, createInflateRaw, type Gunzip, type Inflate, type InflateRaw } from 'node:zlib';
import { TooLarge, wrongData } from '../errors/api-error.js';

const ENCODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'zlib']);

// Output comes in pieces this large: each is one short turn of the event loop (the inflating runs on
// libuv's thread pool), and a bomb is stopped within one piece of its cap.
const PIECE_BYTES = 64 * 1024;

export function needsDecompression(contentEncoding: string): boolean {
  const enc = contentEncoding.trim().toLowerCase();
  if (enc === '' || enc === 'identity') return false;
  if (!ENCODINGS.has(enc)) {
    throw wrongData('WRONG_PARAMETER', `Content-Encoding ${JSON.stringify(contentEncoding)} is not supported: use gzip or deflate`);
  }
  return true;
}

// The body inflated, refused with 413 as soon as its output passes maxOutput: no more than the cap
// is ever held, however far the input would inflate.
export function decompress(body: Uint8Array, maxOutput: number): Promise<Uint8Array> {
  if (body.length === 0) return Promise.resolve(body);
  const stream = inflaterFor(body[0]!, body[1] ?? 0);
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    let size = 0;
    stream.on('data', (piece: Buffer) => {
      size += piece.length;
      if (size > maxOutput) {
        pieces.length = 0;
        stream.destroy();
        reject(new TooLarge(413, `request body decompresses to more than ${maxOutput} bytes`));
        return;
      }
      pieces.push(piece);
    });
    stream.on('end', () => resolve(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size)));
    stream.on('error', (err) => reject(wrongData('WRONG_DATA_TYPE', `request body could not be decompressed: ${err.message}`)));
    stream.end(body);
  });
}

function inflaterFor(b0: number, b1: number): Gunzip | Inflate | InflateRaw {
  const opts = { chunkSize: PIECE_BYTES };
  if (b0 === 0x1f && b1 === 0x8b) return createGunzip(opts);
  return (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0 ? createInflate(opts) : createInflateRaw(opts);
}
