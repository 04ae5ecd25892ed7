// Identifier types of a database (item_id_type, user_id_type, session_id_type) and their checks.
// The complete list and each type's JSON form are documented in docs/api-choices.md.
import { LIMITS } from '../../config/limits.js';

export type IdValue = string | number;

export interface IdType {
  name: string;
  // Returns the canonical value, or undefined when the input is not of this type.
  parse(value: unknown): IdValue | undefined;
}

// Python clients speaking pickle send ids as `bytes` (numpy S<n> elements too, trailing NULs stripped):
// raw bytes for bytesN types (NUL-padded back to N), ASCII text for the others.
export function parseIdBytes(type: IdType, b: Uint8Array): IdValue | undefined {
  const n = /^bytes([0-9]+)$/.exec(type.name);
  if (n) {
    const size = Number(n[1]);
    if (b.length > size) return undefined;
    const full = Buffer.alloc(size);
    full.set(b);
    return full.toString('base64url');
  }
  for (const c of b) if (c >= 0x80) return undefined;
  return type.parse(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1'));
}

const UINT32_MAX = 0xffffffff;
const DECIMAL = /^(0|[1-9][0-9]*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const URLSAFE = /^[A-Za-z0-9_-]+$/;

function uintType(name: string, max: number): IdType {
  return {
    name,
    parse(v) {
      if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 && v <= max ? v : undefined;
      if (typeof v === 'string' && DECIMAL.test(v) && v.length <= 20) {
        const n = Number(v);
        // uint64 beyond 2^53 stays a decimal string, so no precision is lost.
        if (n <= Number.MAX_SAFE_INTEGER) return n <= max ? n : undefined;
        return name === 'uint64' && BigInt(v) <= 0xffffffffffffffffn ? v : undefined;
      }
      return undefined;
    },
  };
}

const uuidType: IdType = {
  name: 'uuid',
  parse(v) {
    if (typeof v !== 'string') return undefined;
    const s = v.toLowerCase();
    return UUID.test(s) ? s : undefined;
  },
};

const urlsafeType: IdType = {
  name: 'urlsafe',
  parse: (v) => (typeof v === 'string' && v.length <= LIMITS.idMax && URLSAFE.test(v) ? v : undefined),
};

function hexType(chars: number): IdType {
  const re = new RegExp(`^[0-9a-f]{${chars}}$`);
  return {
    name: `hex${chars}`,
    parse(v) {
      if (typeof v !== 'string') return undefined;
      const s = v.toLowerCase();
      return re.test(s) ? s : undefined;
    },
  };
}

function bytesType(n: number): IdType {
  return {
    name: `bytes${n}`,
    parse(v) {
      if (typeof v !== 'string' || !URLSAFE.test(v) || v.length !== Math.ceil((n * 4) / 3)) return undefined;
      return Buffer.from(v, 'base64url').length === n ? v : undefined;
    },
  };
}

const FIXED: Record<string, IdType> = {
  uint32: uintType('uint32', UINT32_MAX),
  uint64: uintType('uint64', Number.MAX_SAFE_INTEGER),
  uuid: uuidType,
  urlsafe: urlsafeType,
};

// hexN: N hexadecimal characters, N even from 2 to 64. bytesN: N bytes, 1 to 48 (64 base64url characters).
export function idType(name: string): IdType | undefined {
  const fixed = FIXED[name];
  if (fixed) return fixed;
  let m = /^hex([1-9][0-9]?)$/.exec(name);
  if (m) {
    const n = Number(m[1]);
    return n % 2 === 0 && n <= 64 ? hexType(n) : undefined;
  }
  m = /^bytes([1-9][0-9]?)$/.exec(name);
  if (m) {
    const n = Number(m[1]);
    return n <= 48 ? bytesType(n) : undefined;
  }
  return undefined;
}

export const ID_TYPE_NAMES = 'uint32, uint64, uuid, urlsafe, hexN (N even, 2..64), bytesN (N 1..48)';
