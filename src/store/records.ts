// msgpack for structured values stored in Redis.
import { decode, encode } from '@msgpack/msgpack';

export const pack = (value: unknown): Buffer => {
  const bytes = encode(value);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

export const unpack = <T>(bytes: Buffer | null | undefined): T | undefined => (bytes == null ? undefined : (decode(bytes) as T));
