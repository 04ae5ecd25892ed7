// Lua shared by the write scripts: Redis calls over lists longer than Lua's unpack limit, the
// allocation of dense indices to ids seen for the first time, and the rating count.
import type { Connection } from './redis.js';
import { LIMITS } from '../config/limits.js';

export type Script = (...args: (string | Buffer | Uint8Array | number)[]) => Promise<unknown>;

// Registers a script once (then run by EVALSHA). bytes: replies as Buffers rather than strings.
export function defineScript(redis: Connection, name: string, numberOfKeys: number, lua: string, bytes = false): Script {
  redis.defineCommand(name, { numberOfKeys, lua });
  return (redis as unknown as Record<string, Script>)[bytes ? `${name}Buffer` : name]!.bind(redis);
}

export const LUA_HELPERS = `
local SLICE = 4000
local function hmget(key, list)
  local out = {}
  for s = 1, #list, SLICE do
    local part = redis.call('HMGET', key, unpack(list, s, math.min(s + SLICE - 1, #list)))
    for i = 1, #part do out[#out + 1] = part[i] end
  end
  return out
end
local function hset(key, list)
  for s = 1, #list, SLICE do redis.call('HSET', key, unpack(list, s, math.min(s + SLICE - 1, #list))) end
end
-- {-3, name, quota, used} (what stores turn into 403 QUOTA_EXCEEDED, quota-reply.ts) when adding
-- adding to used would pass quota; false otherwise.
local function overQuota(name, quota, used, adding)
  quota = tonumber(quota)
  if used + tonumber(adding) > quota then return {-3, name, quota, used} end
  return false
end
-- Gives every id whose entry in idxs is false the next dense index: recorded in the index (id -> idx)
-- and the reverse (idx -> id). ids must be distinct. With a quota (the most indices the counter may
-- hand out), returns overQuota's answer, having allocated nothing, when the new ids would pass it.
local function allocate(indexKey, counterKey, idsKey, ids, idxs, quota, name)
  local fresh = {}
  for e = 1, #ids do if not idxs[e] then fresh[#fresh + 1] = e end end
  if #fresh == 0 then return false end
  if quota then
    local over = overQuota(name, quota, tonumber(redis.call('GET', counterKey) or '0'), #fresh)
    if over then return over end
  end
  local first = redis.call('INCRBY', counterKey, #fresh) - #fresh
  local fwd, back = {}, {}
  for k = 1, #fresh do
    local idx = tostring(first + k - 1)
    idxs[fresh[k]] = idx
    fwd[#fwd + 1] = ids[fresh[k]]; fwd[#fwd + 1] = idx
    back[#back + 1] = idx; back[#back + 1] = ids[fresh[k]]
  end
  hset(indexKey, fwd)
  hset(idsKey, back)
  return false
end
-- The rating count after a change: SET when it changed, and the highest training threshold
-- (${LIMITS.minRatingsForTraining} · 2^k) reached for the first time, else 0 (the next one to reach is kept in nextKey).
local function counted(countKey, nextKey, before, added)
  local after = before + added
  if added ~= 0 then redis.call('SET', countKey, after) end
  local nxt = tonumber(redis.call('GET', nextKey) or '${LIMITS.minRatingsForTraining}')
  if after < nxt then return 0 end
  local t = nxt
  while t * 2 <= after do t = t * 2 end
  redis.call('SET', nextKey, t * 2)
  return t
end
-- Dense indices of distinct ids, allocated where missing; and allocate's quota answer (false: none).
local function resolve(indexKey, counterKey, idsKey, ids, quota, name)
  local idxs = hmget(indexKey, ids)
  return idxs, allocate(indexKey, counterKey, idsKey, ids, idxs, quota, name)
end
`;

// A value for cmsgpack.unpack in a script: Redis's bundled cmsgpack predates the msgpack `bin` type
// that libraries use for byte strings, so byte strings go as raw32 (0xdb), arrays as array32 (0xdd)
// and integers as uint32 (0xce), forms it has always read.
const SHORT = 64;

export class LuaFrame {
  private buf: Buffer;
  private at = 0;

  constructor(sizeHint = 4096) {
    this.buf = Buffer.allocUnsafe(sizeHint);
  }

  array(n: number): this {
    this.room(5);
    this.buf[this.at] = 0xdd;
    this.buf.writeUInt32BE(n, this.at + 1);
    this.at += 5;
    return this;
  }

  uint(n: number): this {
    this.room(5);
    this.buf[this.at] = 0xce;
    this.buf.writeUInt32BE(n, this.at + 1);
    this.at += 5;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(5 + b.length);
    this.buf[this.at] = 0xdb;
    this.buf.writeUInt32BE(b.length, this.at + 1);
    this.buf.set(b, this.at + 5);
    this.at += 5 + b.length;
    return this;
  }

  string(s: string): this {
    this.room(5 + s.length * 3);
    this.buf[this.at] = 0xdb;
    const n = s.length <= SHORT ? this.ascii(s, this.at + 5) : -1;
    const written = n >= 0 ? n : this.buf.write(s, this.at + 5);
    this.buf.writeUInt32BE(written, this.at + 1);
    this.at += 5 + written;
    return this;
  }

  // Short ASCII strings (ids, types, numbers) byte by byte: cheaper than a UTF-8 encoder call.
  // -1 when s holds anything else (the caller then writes it over with the encoder).
  private ascii(s: string, at: number): number {
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c >= 0x80) return -1;
      this.buf[at + k] = c;
    }
    return s.length;
  }

  // A byte string of n bytes written in place by fill (at its offset in the frame's buffer).
  raw(n: number, fill: (buf: Buffer, at: number) => void): this {
    this.room(5 + n);
    this.buf[this.at] = 0xdb;
    this.buf.writeUInt32BE(n, this.at + 1);
    fill(this.buf, this.at + 5);
    this.at += 5 + n;
    return this;
  }

  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
}

// A value read back from a LuaFrame, or from what cmsgpack.pack writes for such a table: arrays,
// byte strings (raw, whatever msgpack type carried them) and non-negative integers.
export type LuaValue = number | Uint8Array | LuaValue[];

export function readLuaFrame(bytes: Uint8Array): LuaValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const bytesOf = (n: number) => {
    if (at + n > bytes.length) throw new Error('truncated frame');
    const out = bytes.subarray(at, at + n);
    at += n;
    return out;
  };
  const array = (n: number): LuaValue[] => {
    const out: LuaValue[] = new Array(n);
    for (let k = 0; k < n; k++) out[k] = next();
    return out;
  };
  const uint = (n: 1 | 2 | 4): number => {
    if (at + n > bytes.length) throw new Error('truncated frame');
    const v = n === 1 ? bytes[at]! : n === 2 ? view.getUint16(at) : view.getUint32(at);
    at += n;
    return v;
  };
  const next = (): LuaValue => {
    const t = uint(1);
    if (t <= 0x7f) return t; // positive fixint
    if (t >= 0x90 && t <= 0x9f) return array(t & 0x0f);
    if (t >= 0xa0 && t <= 0xbf) return bytesOf(t & 0x1f);
    switch (t) {
      case 0xcc:
        return uint(1);
      case 0xcd:
        return uint(2);
      case 0xce:
        return uint(4);
      case 0xc4:
      case 0xd9:
        return bytesOf(uint(1)); // bin8, str8
      case 0xc5:
      case 0xda:
        return bytesOf(uint(2));
      case 0xc6:
      case 0xdb:
        return bytesOf(uint(4));
      case 0xdc:
        return array(uint(2));
      case 0xdd:
        return array(uint(4));
      default:
        throw new Error(`frame type 0x${t.toString(16)} is not one recd writes`);
    }
  };
  return next();
}
