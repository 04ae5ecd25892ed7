// JSON, the default codec.
import { DecodeError, type Codec } from './codec.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export const jsonCodec: Codec = {
  mediaTypes: ['application/json'],
  compressible: true,
  decode(bytes) {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new DecodeError('request body is not valid UTF-8');
    }
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new DecodeError(`malformed JSON: ${(err as Error).message}`);
    }
  },
  encode(value) {
    return JSON.stringify(value);
  },
};
