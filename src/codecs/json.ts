// JSON, the default codec.
import { DecodeError, MAX_BODY_DEPTH, protoKey, tooDeep, type Codec } from './codec.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export const jsonCodec: Codec = {
  mediaTypes: ['application/json'],
  compressible: true,
  decode(bytes) {
    const mayHoldProto = scan(bytes);
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
    if (mayHoldProto) refuseProtoKeys(value);
    return value;
  },
  encode(value) {
    return JSON.stringify(value);
  },
};

// One pass over the bytes before JSON.parse builds anything, no recursion and no allocation: refuses
// a body nested deeper than MAX_BODY_DEPTH (brackets outside strings), and tells whether a key could
// be `__proto__`: a string of exactly those bytes, or one holding a \u escape (any letter of it may
// be spelled so; the other escapes spell none). Malformed text is left to JSON.parse (UTF-8
// continuation bytes never equal an ASCII bracket, quote or backslash). The depth check and the
// search for `proto` were two passes with a native call per string; this is one plain loop.
function scan(bytes: Uint8Array): boolean {
  let depth = 0;
  let mayHoldProto = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      const start = i + 1;
      // On to the closing quote; a backslash escapes the byte after it (a quote, a backslash, a u...).
      for (i = start; i < n; i++) {
        const d = bytes[i]!;
        if (d === 0x22) break;
        if (d === 0x5c && bytes[++i] === 0x75) mayHoldProto = true;
      }
      if (i - start === 9 && spellsProto(bytes, start)) mayHoldProto = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_BODY_DEPTH) throw tooDeep('JSON body');
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return mayHoldProto;
}

const PROTO = [...'__proto__'].map((ch) => ch.charCodeAt(0));

function spellsProto(bytes: Uint8Array, at: number): boolean {
  for (let k = 0; k < PROTO.length; k++) if (bytes[at + k] !== PROTO[k]) return false;
  return true;
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
