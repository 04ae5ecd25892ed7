// Protocol 0 text arguments (INT, LONG, FLOAT, STRING, UNICODE) and UTF-8.
import type { Buffer } from 'node:buffer';
import { DecodeError } from '../codec.js';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

// `buf` is the whole input; [start, end) the string.
export function utf8(buf: Buffer, start: number, end: number): string {
  const s = buf.toString('utf8', start, end);
  if (s.includes('\ufffd')) {
    try {
      fatalUtf8.decode(buf.subarray(start, end));
    } catch {
      throw new DecodeError('pickle: invalid UTF-8 in a string');
    }
  }
  return s;
}

export function latin1(buf: Buffer, start: number, end: number): string {
  return buf.toString('latin1', start, end);
}

// Integers: numbers when safe, BigInt beyond.
export function intValue(n: bigint): number | bigint {
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : n;
}

export function parseDecimal(s: string): number | bigint {
  if (!/^[+-]?\d+$/.test(s)) throw new DecodeError('pickle: bad integer');
  if (s.length < 16) return Number(s);
  return intValue(BigInt(s));
}

export function parseFloatText(s: string): number {
  const t = s.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (!m) throw new DecodeError('pickle: bad float');
  if ((m[2] as string).toLowerCase() === 'nan') return NaN;
  return m[1] === '-' ? -Infinity : Infinity;
}

// Little-endian two's complement (LONG1/LONG4).
export function decodeLong(b: Uint8Array): number | bigint {
  const n = b.length;
  if (n === 0) return 0;
  if (n <= 6) {
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + (b[i] as number);
    return (b[n - 1] as number) & 0x80 ? v - 2 ** (8 * n) : v;
  }
  let hex = '';
  for (let i = n - 1; i >= 0; i--) hex += (b[i] as number).toString(16).padStart(2, '0');
  let v = BigInt(`0x${hex}`);
  if ((b[n - 1] as number) & 0x80) v -= 1n << BigInt(8 * n);
  return intValue(v);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

// STRING: a quoted Python 2 str repr; its bytes are returned as latin1 text.
export function parseQuoted(line: string): string {
  const q = line[0];
  if (line.length < 2 || (q !== "'" && q !== '"') || line[line.length - 1] !== q) throw new DecodeError('pickle: STRING must be quoted');
  const body = line.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw new DecodeError('pickle: bad escape in STRING');
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) out += simple;
    else if (e === 'x') {
      const h = body.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(h)) throw new DecodeError('pickle: bad \\x escape in STRING');
      out += String.fromCharCode(parseInt(h, 16));
      i += 2;
    } else if (e >= '0' && e <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i, i + 3)) as RegExpExecArray;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else out += `\\${e}`;
  }
  return out;
}

// UNICODE: raw-unicode-escape (latin1 text with \uXXXX and \UXXXXXXXX escapes).
export function parseRawUnicodeEscape(s: string): string {
  return s.replace(/\\(\\|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/g, (all, e: string) => {
    if (e === '\\') return all;
    const cp = parseInt(e.slice(1), 16);
    if (cp > 0x10ffff) throw new DecodeError('pickle: bad \\U escape');
    return String.fromCodePoint(cp);
  });
}
