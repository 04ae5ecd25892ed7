// msgpack for structured values stored in Redis. One encoder and one decoder for the process: the
// library's encode()/decode() build a new one (with its buffers) per call, which dominated bulk writes.
import { Decoder, Encoder } from '@msgpack/msgpack';

const encoder = new Encoder();
const decoder = new Decoder();

export const pack = (value: unknown): Buffer => {
  const bytes = encoder.encode(value); // a copy: the shared buffer is reused by the next call
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

export const unpack = <T>(bytes: Buffer | null | undefined): T | undefined => (bytes == null ? undefined : (decoder.decode(bytes) as T));
