// Large values (model buffers, the ratings snapshot) in Redis strings of at most PART_BYTES each.
// One command moving hundreds of MB outlasts the command timeout once Redis or this process is busy:
// on an idle machine ioredis took 3 s to write 400 MB and 5 s to read them back, and trainings of
// 20M ratings and of 1M items failed with "Command timed out" on such writes and reads.
import type { Connection } from './redis.js';

export const PART_BYTES = 32 * 1024 * 1024;

export const partCount = (bytes: number, partBytes = PART_BYTES): number => Math.max(1, Math.ceil(bytes / partBytes));

// Part k of `buffer` (a view, no copy).
export function partOf(buffer: Uint8Array, k: number, partBytes = PART_BYTES): Buffer {
  return Buffer.from(buffer.buffer, buffer.byteOffset + k * partBytes, Math.max(0, Math.min(partBytes, buffer.byteLength - k * partBytes)));
}

// Writes parts [from, count) to keyOf(k); a failed write unlinks the parts it wrote before throwing
// (a large value must not be left half-stored).
export async function writeParts(redis: Connection, keyOf: (k: number) => string, buffer: Uint8Array, from = 0, partBytes = PART_BYTES): Promise<void> {
  const count = partCount(buffer.byteLength, partBytes);
  let k = from;
  try {
    for (; k < count; k++) await redis.set(keyOf(k), partOf(buffer, k, partBytes));
  } catch (err) {
    if (k > from) await redis.unlink(...Array.from({ length: k - from }, (_, j) => keyOf(from + j))).catch(() => undefined);
    throw err;
  }
}

// The parts keys[0 ..] read one after another into `out` (whole), or undefined when one is missing
// or the sizes do not add up.
export async function readParts(redis: Connection, keys: string[], out: Uint8Array): Promise<Uint8Array | undefined> {
  let at = 0;
  for (const key of keys) {
    const part = await redis.getBuffer(key);
    if (!part || at + part.byteLength > out.byteLength) return undefined;
    out.set(part, at);
    at += part.byteLength;
  }
  return at === out.byteLength ? out : undefined;
}
