// The byte-level half of the pickle encoder: a growable buffer that frames its output the way
// CPython's protocol-4 Pickler does, and one method per opcode family. It knows nothing of JS values.
//
// Framing (PEP 3154): opcodes are grouped into FRAMEs of about 64 KiB. `beginValue()` closes the
// current frame once it has reached the target, as `Pickler.save` does before each object; payloads
// of 64 KiB or more (bytes, str) are written after the frame, unframed, as `write_large_bytes` does.
// A frame under 4 bytes gets no FRAME header (a bare `None` pickles as 80 04 4E 2E, as in Python).

const FRAME_TARGET = 64 * 1024;
const FRAME_MIN = 4;
const FRAME_HEADER = 9; // FRAME + uint64 length
const MAX_IN_PLACE = Math.floor((FRAME_TARGET - 1) / 3);

export const OP = {
  MARK: 0x28, // (
  STOP: 0x2e, // .
  NONE: 0x4e, // N
  NEWTRUE: 0x88,
  NEWFALSE: 0x89,
  BININT: 0x4a, // J
  BININT1: 0x4b, // K
  BININT2: 0x4d, // M
  LONG1: 0x8a,
  LONG4: 0x8b,
  BINFLOAT: 0x47, // G
  SHORT_BINUNICODE: 0x8c,
  BINUNICODE: 0x58, // X
  BINUNICODE8: 0x8d,
  SHORT_BINBYTES: 0x43, // C
  BINBYTES: 0x42, // B
  BINBYTES8: 0x8e,
  EMPTY_LIST: 0x5d, // ]
  APPEND: 0x61, // a
  APPENDS: 0x65, // e
  EMPTY_DICT: 0x7d, // }
  SETITEM: 0x73, // s
  SETITEMS: 0x75, // u
  TUPLE: 0x74, // t
  TUPLE1: 0x85,
  TUPLE2: 0x86,
  TUPLE3: 0x87,
  STACK_GLOBAL: 0x93,
  REDUCE: 0x52, // R
  BUILD: 0x62, // b
  PROTO: 0x80,
  FRAME: 0x95,
} as const;

export class PickleWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = 0;
  // Where the open frame's reserved header starts; -1 when no frame is open.
  private frameStart = -1;

  constructor(protocol = 4) {
    // PROTO precedes the first frame.
    this.buf[0] = OP.PROTO;
    this.buf[1] = protocol;
    this.len = 2;
  }

  // Call before writing each value (container or scalar): closes a frame that is big enough.
  beginValue(): void {
    if (this.frameStart >= 0 && this.len - this.frameStart - FRAME_HEADER >= FRAME_TARGET) this.commitFrame();
  }

  // Writes STOP, closes the last frame and returns the pickle.
  finish(): Uint8Array {
    this.op(OP.STOP);
    this.commitFrame();
    return this.buf.subarray(0, this.len);
  }

  op(code: number): void {
    this.openFrame();
    this.reserve(1);
    this.buf[this.len++] = code;
  }

  // ---- scalars -------------------------------------------------------------------------------

  none(): void {
    this.op(OP.NONE);
  }

  bool(v: boolean): void {
    this.op(v ? OP.NEWTRUE : OP.NEWFALSE);
  }

  // An integer from -2**31 to 2**31-1, in the shortest of BININT1, BININT2 and BININT, as Python picks.
  int32(v: number): void {
    if (v >= 0 && v <= 0xff) {
      this.op(OP.BININT1);
      this.u8(v);
    } else if (v >= 0 && v <= 0xffff) {
      this.op(OP.BININT2);
      this.reserve(2);
      this.view.setUint16(this.len, v, true);
      this.len += 2;
    } else {
      this.op(OP.BININT);
      this.reserve(4);
      this.view.setInt32(this.len, v, true);
      this.len += 4;
    }
  }

  // A safe integer (callers send other numbers to float()).
  int(v: number): void {
    if (v >= -0x80000000 && v <= 0x7fffffff) this.int32(v);
    else this.bigint(BigInt(v));
  }

  // Any integer: int32 opcodes when it fits, else LONG1/LONG4 with minimal two's complement, little-endian.
  bigint(v: bigint): void {
    if (v >= -0x80000000n && v <= 0x7fffffffn) return this.int32(Number(v));
    const bytes: number[] = [];
    let x = v;
    // Emit bytes until the rest is pure sign extension and the last byte's top bit shows the sign.
    for (;;) {
      const b = Number(x & 0xffn);
      bytes.push(b);
      x >>= 8n; // arithmetic shift: -1 stays -1
      if ((x === 0n && (b & 0x80) === 0) || (x === -1n && (b & 0x80) !== 0)) break;
    }
    if (bytes.length < 256) {
      this.op(OP.LONG1);
      this.u8(bytes.length);
    } else {
      this.op(OP.LONG4);
      this.reserve(4);
      this.view.setInt32(this.len, bytes.length, true);
      this.len += 4;
    }
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  float(v: number): void {
    this.op(OP.BINFLOAT);
    this.reserve(8);
    this.view.setFloat64(this.len, v, false); // big-endian, as '>d'
    this.len += 8;
  }

  // A JS string as a Python str, UTF-8 with lone surrogates passed through (see utf8SurrogatePass).
  // Strings that surely encode under 64 KiB are encoded in place; longer ones go through str().
  string(s: string): void {
    if (s.length > MAX_IN_PLACE) return this.str(utf8SurrogatePass(s));
    const short = s.length <= 85; // at most 3 bytes per UTF-16 unit: fits a 1-byte length
    this.openFrame();
    this.reserve(5 + 3 * s.length);
    const at = this.len;
    const start = at + (short ? 2 : 5);
    const end = encodeUtf8(s, this.buf, start);
    const n = end - start;
    if (n <= 0xff) {
      if (!short) this.buf.copyWithin(at + 2, start, end);
      this.buf[at] = OP.SHORT_BINUNICODE;
      this.buf[at + 1] = n;
      this.len = at + 2 + n;
    } else {
      this.buf[at] = OP.BINUNICODE;
      this.view.setUint32(at + 1, n, true);
      this.len = end;
    }
  }

  // A Python str from its UTF-8 bytes (see utf8SurrogatePass).
  str(utf8: Uint8Array): void {
    this.sized(utf8, OP.SHORT_BINUNICODE, OP.BINUNICODE, OP.BINUNICODE8);
  }

  bytes(data: Uint8Array): void {
    this.sized(data, OP.SHORT_BINBYTES, OP.BINBYTES, OP.BINBYTES8);
  }

  // ---- internals -----------------------------------------------------------------------------

  private sized(data: Uint8Array, short: number, mid: number, long: number): void {
    const n = data.length;
    const large = n >= FRAME_TARGET;
    if (large) this.commitFrame();
    const header = n <= 0xff ? 2 : n <= 0xffffffff ? 5 : 9;
    if (!large) this.openFrame();
    this.reserve(header + n);
    if (n <= 0xff) {
      this.buf[this.len++] = short;
      this.buf[this.len++] = n;
    } else if (n <= 0xffffffff) {
      this.buf[this.len++] = mid;
      this.view.setUint32(this.len, n, true);
      this.len += 4;
    } else {
      this.buf[this.len++] = long;
      this.view.setBigUint64(this.len, BigInt(n), true);
      this.len += 8;
    }
    this.buf.set(data, this.len);
    this.len += n;
  }

  private u8(v: number): void {
    this.reserve(1);
    this.buf[this.len++] = v;
  }

  private openFrame(): void {
    if (this.frameStart >= 0) return;
    this.reserve(FRAME_HEADER);
    this.frameStart = this.len;
    this.len += FRAME_HEADER;
  }

  private commitFrame(): void {
    if (this.frameStart < 0) return;
    const start = this.frameStart;
    const size = this.len - start - FRAME_HEADER;
    this.frameStart = -1;
    if (size >= FRAME_MIN) {
      this.buf[start] = OP.FRAME;
      this.view.setBigUint64(start + 1, BigInt(size), true);
    } else {
      // Too small to be worth a header: slide the bytes over the reserved space.
      this.buf.copyWithin(start, start + FRAME_HEADER, this.len);
      this.len -= FRAME_HEADER;
    }
  }

  private reserve(n: number): void {
    const need = this.len + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
}

// UTF-8 as Python's pickle writes str: `s.encode('utf-8', 'surrogatepass')`. A surrogate pair is one
// 4-byte character; a lone surrogate (legal in a JS string, unencodable in strict UTF-8) becomes the
// 3-byte form of its own code unit (e.g. U+D800 → ED A0 80), which `pickle.loads` decodes with
// 'surrogatepass' into the same lone surrogate. So the Python client gets exactly the JS string, and
// nothing is replaced; it would only fail later if it tried to encode that str strictly.
// Without the u flag these classes match UTF-16 code units.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function utf8SurrogatePass(s: string): Uint8Array {
  if (!LONE_SURROGATE.test(s)) return Buffer.from(s, 'utf8');
  const out = new Uint8Array(s.length * 3);
  return out.subarray(0, encodeUtf8(s, out, 0));
}

// Writes s at out[at…] (room for 3 bytes per UTF-16 unit needed), returns the end offset.
function encodeUtf8(s: string, out: Uint8Array, at: number): number {
  let n = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return n;
}
