// Bounds-checked reads over the pickle bytes, honouring protocol 4 frames.
import { Buffer } from 'node:buffer';
import { DecodeError } from '../codec.js';

export class Reader {
  pos = 0;
  // End of the current frame, or of the input outside frames.
  private end: number;
  private readonly view: DataView;
  // The same bytes, for Buffer's fast text decoding.
  readonly buf: Buffer;

  constructor(readonly bytes: Uint8Array) {
    this.end = bytes.length;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  // The next opcode byte; leaves a frame that has been read entirely.
  opcode(): number {
    if (this.pos === this.end) this.end = this.bytes.length;
    this.need(1);
    return this.bytes[this.pos++] as number;
  }

  frame(length: number): void {
    if (this.end !== this.bytes.length && this.pos < this.end) throw new DecodeError('pickle: new frame before the end of the current one');
    if (length > this.bytes.length - this.pos) throw new DecodeError('pickle: frame longer than the input');
    this.end = this.pos + length;
  }

  need(n: number): void {
    if (n > this.end - this.pos) {
      throw new DecodeError(this.end === this.bytes.length ? 'pickle: truncated input' : 'pickle: opcode crosses a frame boundary');
    }
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++] as number;
  }

  u16(): number {
    this.need(2);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 2;
    return (b[p] as number) | ((b[p + 1] as number) << 8);
  }

  i32(): number {
    this.need(4);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return (b[p] as number) | ((b[p + 1] as number) << 8) | ((b[p + 2] as number) << 16) | ((b[p + 3] as number) << 24);
  }

  u32(): number {
    return this.i32() >>> 0;
  }

  // An 8-byte length; anything past 2^53 is certainly longer than the input.
  u64(): number {
    const lo = this.u32();
    const hi = this.u32();
    if (hi > 0x1fffff) throw new DecodeError('pickle: length field too large');
    return hi * 2 ** 32 + lo;
  }

  f64be(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, false);
    this.pos += 8;
    return v;
  }

  // n bytes as a view (no copy); n is checked against what is left before anything else.
  take(n: number): Uint8Array {
    this.need(n);
    const out = new Uint8Array(this.bytes.buffer, this.bytes.byteOffset + this.pos, n);
    this.pos += n;
    return out;
  }

  // A text argument up to '\n' (not included), at most `max` bytes: [start, end) in `bytes`.
  line(max: number): [number, number] {
    const limit = Math.min(this.end, this.pos + max + 1);
    const nl = this.bytes.subarray(0, limit).indexOf(0x0a, this.pos);
    if (nl < 0) {
      throw new DecodeError(limit < this.end ? 'pickle: text argument too long' : 'pickle: truncated input');
    }
    const start = this.pos;
    this.pos = nl + 1;
    return [start, nl];
  }
}
