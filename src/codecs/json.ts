// JSON, the default codec.
import { DecodeError, MAX_BODY_DEPTH, tooDeep, type Codec } from './codec.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export const jsonCodec: Codec = {
  mediaTypes: ['application/json'],
  compressible: true,
  decode(bytes) {
    checkDepth(bytes);
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

// Refuses a body nested deeper than MAX_BODY_DEPTH by counting brackets outside strings: one pass, no
// recursion and no allocation, before JSON.parse builds anything. Malformed text is left to JSON.parse
// (UTF-8 continuation bytes never equal an ASCII bracket or quote).
function checkDepth(bytes: Uint8Array): void {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // On to the closing quote: the first one not escaped by an odd run of backslashes.
      for (;;) {
        const q = bytes.indexOf(0x22, i + 1);
        if (q < 0) return;
        let b = q - 1;
        while (bytes[b] === 0x5c) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_BODY_DEPTH) throw tooDeep('JSON body');
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
