// The only globals a pickle may name; everything else is refused by name.
import { DecodeError } from '../codec.js';
import { PyGlobal, type GlobalKind } from './pyobjects.js';

const ALLOWED = new Map<string, GlobalKind>([
  ['numpy.core.multiarray._reconstruct', 'reconstruct'],
  ['numpy._core.multiarray._reconstruct', 'reconstruct'],
  ['numpy.ndarray', 'ndarray'],
  ['numpy.dtype', 'dtype'],
  ['numpy.core.multiarray.scalar', 'scalar'],
  ['numpy._core.multiarray.scalar', 'scalar'],
  // Protocol 5 pickles contiguous arrays as _frombuffer(buffer, dtype, shape, order).
  ['numpy.core.numeric._frombuffer', 'frombuffer'],
  ['numpy._core.numeric._frombuffer', 'frombuffer'],
  ['_codecs.encode', 'encode'],
]);
for (const mod of ['builtins', '__builtin__']) {
  for (const name of ['set', 'frozenset', 'list', 'dict', 'tuple', 'bytearray', 'bytes'] as const) ALLOWED.set(`${mod}.${name}`, name);
}

const cache = new Map<string, PyGlobal>();

export function lookupGlobal(module: unknown, name: unknown): PyGlobal {
  if (typeof module !== 'string' || typeof name !== 'string') throw new DecodeError('pickle global: module and name must be strings');
  const qualified = `${module}.${name}`;
  let g = cache.get(qualified);
  if (g === undefined) {
    const kind = ALLOWED.get(qualified);
    if (kind === undefined) throw new DecodeError(`pickle global ${printable(qualified)} is not allowed`);
    g = new PyGlobal(qualified, kind);
    cache.set(qualified, g);
  }
  return g;
}

export function printable(s: string): string {
  const cut = s.length > 200 ? `${s.slice(0, 200)}…` : s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  return cut.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
