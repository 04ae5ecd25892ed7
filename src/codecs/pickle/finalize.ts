// After STOP: replaces interpreter-only values with plain ones (dicts → objects or Maps, placeholders → NdArray,
// dtypes → their string) and bounds the result: no cycles, nesting ≤ maxDepth, and at most maxElements values
// when expanded as a tree (shared references count each time, so no exponential blow-up downstream).
import { DecodeError } from '../codec.js';
import { dtypeStr, statsOf } from './dtype.js';
import type { PickleLimits } from './limits.js';
import { NdArray, setKey, sizeOf } from './ndarray.js';
import { PendingArray, PyDict, PyDtype, PyGlobal } from './pyobjects.js';

interface Done {
  out: unknown;
  // Nesting height (0 for a leaf).
  h: number;
  // Values in the expanded tree.
  n: number;
}

// A container being converted. Children are converted in place: arrays (lists, tuples, sets, object-array data
// — all the decoder's own) element by element; dicts in their keys/values arrays.
interface Frame {
  node: object;
  // Arrays: the array; dicts: null (children interleave keys[i>>1] and values[i>>1]).
  arr: unknown[] | null;
  len: number;
  i: number;
  h: number;
  n: number;
}

const ACTIVE: Done = { out: undefined, h: 0, n: 0 };

export function finalize(root: unknown, limits: PickleLimits): unknown {
  // Containers converted (Done) or on the current path (ACTIVE).
  const seen = new Map<object, Done>();
  const frames: Frame[] = [];

  const enter = (raw: unknown): Done | null => {
    const v = resolve(raw);
    if (!isContainer(v)) return leaf(v);
    const d = seen.get(v);
    if (d === ACTIVE) throw new DecodeError('pickle: recursive structures are not supported');
    if (d) return d;
    if (frames.length >= limits.maxDepth) throw new DecodeError('pickle: value nested too deeply');
    seen.set(v, ACTIVE);
    if (v instanceof PyDict) frames.push({ node: v, arr: null, len: 2 * v.size, i: 0, h: 0, n: 0 });
    else {
      const arr = Array.isArray(v) ? v : ((v as NdArray).data as unknown[]);
      frames.push({ node: v, arr, len: arr.length, i: 0, h: 0, n: 0 });
    }
    return null;
  };

  const top = enter(root);
  if (top) return checked(top, 0, limits).out;
  for (;;) {
    const f = frames[frames.length - 1] as Frame;
    if (f.i < f.len) {
      const i = f.i;
      const holder = f.arr ?? (i & 1 ? (f.node as PyDict).values : (f.node as PyDict).keys);
      const at = f.arr ? i : i >> 1;
      const kid = holder[at];
      if (kid === null || typeof kid !== 'object') {
        // Primitives are already plain.
        if (++f.n > limits.maxElements) throw new DecodeError('pickle: decoded value is too large');
        f.i++;
        continue;
      }
      const d = enter(kid);
      if (d) {
        checked(d, frames.length, limits);
        if (d.h > f.h) f.h = d.h;
        f.n += d.n;
        if (f.n > limits.maxElements) throw new DecodeError('pickle: decoded value is too large');
        holder[at] = d.out;
        f.i++;
      }
      continue;
    }
    frames.pop();
    const nd = f.node instanceof NdArray ? f.node : null;
    const fin: Done = {
      out: output(f.node),
      h: f.h + 1 + (nd ? nd.shape.length - 1 : 0),
      n: f.n + 1 + (nd ? nestOverhead(nd.shape) : 0),
    };
    seen.set(f.node, fin);
    if (frames.length === 0) return checked(fin, 0, limits).out;
  }
}

function checked(d: Done, depth: number, limits: PickleLimits): Done {
  if (depth + d.h > limits.maxDepth) throw new DecodeError('pickle: value nested too deeply');
  if (d.n > limits.maxElements) throw new DecodeError('pickle: decoded value is too large');
  return d;
}

function resolve(v: unknown): unknown {
  if (v instanceof PendingArray) {
    if (!v.result) throw new DecodeError('pickle: numpy array without state');
    return v.result;
  }
  return v;
}

function isContainer(v: unknown): v is object {
  return Array.isArray(v) || v instanceof PyDict || (v instanceof NdArray && v.dtype.kind === 'O');
}

function leaf(v: unknown): Done {
  if (v instanceof NdArray) {
    const st = statsOf(v.dtype);
    return { out: v, h: v.shape.length + (v.columns ? st.depth : 0), n: v.size * st.cells + nestOverhead(v.shape) };
  }
  if (v instanceof PyDtype) return { out: dtypeStr(v.desc), h: 0, n: 1 };
  if (v instanceof PyGlobal) throw new DecodeError(`pickle: global ${v.qualified} cannot be a value`);
  return { out: v, h: 0, n: 1 };
}

// Plain arrays an n-d array becomes: one per index prefix.
function nestOverhead(shape: readonly number[]): number {
  let n = 0;
  for (let k = 0; k < shape.length - 1; k++) n += sizeOf(shape.slice(0, k + 1));
  return n;
}

function output(node: object): unknown {
  if (!(node instanceof PyDict)) return node;
  const { keys, values } = node;
  let allStrings = true;
  for (const k of keys) if (typeof k !== 'string') allStrings = false;
  if (allStrings) {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) setKey(obj, keys[i] as string, values[i]);
    return obj;
  }
  const m = new Map<unknown, unknown>();
  for (let i = 0; i < keys.length; i++) m.set(keys[i], values[i]);
  return m;
}
