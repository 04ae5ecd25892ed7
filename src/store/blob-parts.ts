// Large values (model buffers, the ratings snapshot) in Redis strings of at most PART_BYTES each.
// One command moving hundreds of MB outlasts the command timeout once Redis or this process is busy:
// on an idle machine ioredis took 3 s to write 400 MB and 5 s to read them back, and trainings of
// 20M ratings and of 1M items failed with "Command timed out" on such writes and reads. A part is
// also one command every other tenant waits behind: 8 MiB keeps it to a few milliseconds of Redis.
import type { Connection } from './redis.js';

export const PART_BYTES = 8 * 1024 * 1024;

// A large value's bytes: a view, or a whole buffer. Past 4 GiB (Node 20's longest typed array) only a
// whole buffer can be given: a training of 20M users with lists of 128 makes a 12.8 GB model.
export type Bytes = Uint8Array | ArrayBuffer | SharedArrayBuffer;

const extent = (b: Bytes) =>
  ArrayBuffer.isView(b) ? { buffer: b.buffer, at: b.byteOffset, bytes: b.byteLength } : { buffer: b, at: 0, bytes: b.byteLength };

export const partCount = (bytes: number, partBytes = PART_BYTES): number => Math.max(1, Math.ceil(bytes / partBytes));

// Part k of `value` (a view, no copy).
export function partOf(value: Bytes, k: number, partBytes = PART_BYTES): Buffer {
  const { buffer, at, bytes } = extent(value);
  return Buffer.from(buffer, at + k * partBytes, Math.max(0, Math.min(partBytes, bytes - k * partBytes)));
}

// Stores one part; false when it is refused (a caller's condition no longer holds), which ends the write.
export type PutPart = (key: string, part: Buffer) => Promise<boolean>;

// Writes parts [from, count) to keyOf(k); a failed or refused write unlinks the parts it wrote before
// throwing or answering false (a large value must not be left half-stored).
export async function writeParts(
  redis: Connection,
  keyOf: (k: number) => string,
  value: Bytes,
  from = 0,
  partBytes = PART_BYTES,
  put: PutPart = async (key, part) => (await redis.set(key, part)) === 'OK',
): Promise<boolean> {
  const count = partCount(value.byteLength, partBytes);
  let k = from;
  const unlinkWritten = () =>
    k > from ? redis.unlink(...Array.from({ length: k - from }, (_, j) => keyOf(from + j))).then(() => undefined) : Promise.resolve();
  try {
    for (; k < count; k++) {
      if (!(await put(keyOf(k), partOf(value, k, partBytes)))) {
        await unlinkWritten();
        return false;
      }
    }
  } catch (err) {
    await unlinkWritten().catch(() => undefined);
    throw err;
  }
  return true;
}

// The parts keys[0 ..] read one after another into `out` (whole), or undefined when one is missing
// or the sizes do not add up.
export async function readParts<T extends Bytes>(redis: Connection, keys: string[], out: T): Promise<T | undefined> {
  const { buffer, at: base, bytes } = extent(out);
  let at = 0;
  for (const key of keys) {
    const part = await redis.getBuffer(key);
    if (!part || at + part.byteLength > bytes) return undefined;
    new Uint8Array(buffer, base + at, part.byteLength).set(part);
    at += part.byteLength;
  }
  return at === bytes ? out : undefined;
}
