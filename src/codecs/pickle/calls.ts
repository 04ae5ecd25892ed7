// REDUCE, NEWOBJ and BUILD: interpreted for allowlisted globals only. Nothing is ever called.
import { Buffer } from 'node:buffer';
import { DecodeError } from '../codec.js';
import type { Budget } from './limits.js';
import { buildArray, buildDtype, frombuffer, makeDtype, reconstruct, scalar } from './numpy.js';
import { PendingArray, PyDict, PyDtype, PyGlobal } from './pyobjects.js';

// Which JS arrays stand for which Python containers (mutability and hashability checks).
export interface Tags {
  readonly lists: WeakSet<unknown[]>;
  readonly sets: WeakSet<unknown[]>;
  // Tuples and frozensets: immutable, usable as dict keys.
  readonly frozen: WeakSet<unknown[]>;
}

export function newTags(): Tags {
  return { lists: new WeakSet(), sets: new WeakSet(), frozen: new WeakSet() };
}

export function tag<T extends unknown[]>(set: WeakSet<unknown[]>, arr: T): T {
  set.add(arr);
  return arr;
}

function argsOf(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new DecodeError(`pickle: ${what} arguments must be a tuple`);
  return v;
}

function globalOf(v: unknown, what: string): PyGlobal {
  if (!(v instanceof PyGlobal)) throw new DecodeError(`pickle: ${what} of something that is not an allowed global`);
  return v;
}

// REDUCE: fn(*args)
export function reduce(fnV: unknown, argsV: unknown, budget: Budget, tags: Tags): unknown {
  const fn = globalOf(fnV, 'REDUCE');
  const args = argsOf(argsV, 'REDUCE');
  switch (fn.kind) {
    case 'reconstruct':
      return reconstruct(args);
    case 'dtype':
      return makeDtype(args);
    case 'scalar':
      return scalar(args, budget);
    case 'frombuffer':
      return frombuffer(args, budget);
    case 'encode':
      if (args.length < 1 || args.length > 3) throw new DecodeError('pickle: _codecs.encode: bad arguments');
      return encode(args[0], args.length > 1 ? args[1] : 'utf-8', budget);
    case 'bytes':
    case 'bytearray':
      if (args.length === 0) return new Uint8Array(0);
      if (args.length === 2) return encode(args[0], args[1], budget);
      if (args.length === 1 && args[0] instanceof Uint8Array) {
        budget.chargeCopy(args[0].length);
        return args[0].slice();
      }
      throw new DecodeError(`pickle: ${fn.qualified}: bad arguments`);
    case 'dict': {
      const d = new PyDict();
      if (args.length === 0) return d;
      const src = args[0];
      if (args.length === 1 && src instanceof PyDict) {
        budget.chargeCopy(src.size);
        for (let i = 0; i < src.size; i++) d.set(src.keys[i], src.values[i]);
        return d;
      }
      throw new DecodeError(`pickle: ${fn.qualified}: bad arguments`);
    }
    case 'list':
    case 'tuple':
    case 'set':
    case 'frozenset': {
      if (args.length > 1) throw new DecodeError(`pickle: ${fn.qualified}: bad arguments`);
      return container(fn, args.length ? items(args[0], budget) : [], tags);
    }
    default:
      throw new DecodeError(`pickle: ${fn.qualified} cannot be called`);
  }
}

// NEWOBJ / NEWOBJ_EX: cls.__new__(cls, *args) for the builtin containers.
export function newObject(clsV: unknown, argsV: unknown, budget: Budget, tags: Tags): unknown {
  const cls = globalOf(clsV, 'NEWOBJ');
  const args = argsOf(argsV, 'NEWOBJ');
  switch (cls.kind) {
    case 'dict':
      return new PyDict();
    case 'bytearray':
      return new Uint8Array(0);
    case 'list':
    case 'set':
      return container(cls, [], tags);
    case 'tuple':
    case 'frozenset':
    case 'bytes':
      return reduce(cls, args, budget, tags);
    default:
      throw new DecodeError(`pickle: NEWOBJ of ${cls.qualified} is not allowed`);
  }
}

// BUILD: obj.__setstate__(state), for numpy arrays and dtypes only.
export function build(obj: unknown, state: unknown, budget: Budget): void {
  if (obj instanceof PendingArray) buildArray(obj, state, budget);
  else if (obj instanceof PyDtype) buildDtype(obj, state, budget);
  else throw new DecodeError('pickle: BUILD is only supported for numpy arrays and dtypes');
}

function container(g: PyGlobal, arr: unknown[], tags: Tags): unknown[] {
  if (g.kind === 'list') return tag(tags.lists, arr);
  if (g.kind === 'set') return tag(tags.sets, arr);
  return tag(tags.frozen, arr);
}

function items(v: unknown, budget: Budget): unknown[] {
  if (Array.isArray(v)) {
    budget.chargeCopy(v.length);
    return v.slice();
  }
  if (v instanceof Uint8Array) {
    budget.chargeCopy(v.length);
    return Array.from(v);
  }
  if (v instanceof PyDict) {
    budget.chargeCopy(v.size);
    return v.keys.slice();
  }
  throw new DecodeError('pickle: container built from something that is not iterable');
}

// _codecs.encode(str, encoding): how protocol 2 spells bytes.
function encode(s: unknown, encoding: unknown, budget: Budget): Uint8Array {
  if (typeof s !== 'string' || typeof encoding !== 'string') throw new DecodeError('pickle: _codecs.encode: bad arguments');
  const enc = encoding.toLowerCase().replace(/_/g, '-');
  let b: Buffer;
  if (enc === 'latin1' || enc === 'latin-1' || enc === 'iso-8859-1' || enc === 'l1') {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: latin1 is the range \u0000-\u00ff, control characters included
    if (/[^\u0000-\u00ff]/.test(s)) throw new DecodeError('pickle: _codecs.encode: text is not latin1');
    b = Buffer.from(s, 'latin1');
  } else if (enc === 'utf-8' || enc === 'utf8') {
    b = Buffer.from(s, 'utf8');
  } else throw new DecodeError('pickle: _codecs.encode: unsupported encoding');
  budget.chargeCopy(b.length);
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}
