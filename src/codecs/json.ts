// JSON, the default codec.
import { DecodeError, MAX_BODY_DEPTH, protoKey, tooDeep, type Codec } from './codec.js';

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
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new DecodeError(`malformed JSON: ${(err as Error).message}`);
    }
    if (maySpellProto(bytes)) refuseProtoKeys(value);
    return value;
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

const PROTO = Buffer.from('proto');

// Whether the text could hold the key `__proto__`: literally, or with one of its letters escaped as
// \u005f, \u0070, \u0072, \u006f or \u0074 (any case). Most bodies have neither, and skip the walk.
function maySpellProto(bytes: Uint8Array): boolean {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(PROTO) >= 0) return true;
  for (let i = bytes.indexOf(0x5c); i >= 0 && i + 5 < bytes.length; i = bytes.indexOf(0x5c, i + 2)) {
    if (bytes[i + 1] !== 0x75 || bytes[i + 2] !== 0x30 || bytes[i + 3] !== 0x30) continue;
    const hi = bytes[i + 4]!;
    const lo = bytes[i + 5]! | 0x20; // lower case
    if ((hi === 0x35 && lo === 0x66) || (hi === 0x37 && (lo === 0x30 || lo === 0x32 || lo === 0x34)) || (hi === 0x36 && lo === 0x66)) return true;
  }
  return false;
}

// An explicit-stack walk (the value is at most MAX_BODY_DEPTH deep, but needs no recursion).
function refuseProtoKeys(root: unknown): void {
  const todo: unknown[] = [root];
  for (let v = todo.pop(); v !== undefined; v = todo.pop()) {
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v) && Object.hasOwn(v, '__proto__')) throw protoKey();
    for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) todo.push(x);
  }
}
