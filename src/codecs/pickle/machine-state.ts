// The pickle machine's state: its stack and the stacks MARK saved, the memo, the reader over the
// input, the budget, and the checked accessors the opcodes use (unpickle.ts runs the opcodes).
import { DecodeError } from '../codec.js';
import { newTags, type Tags } from './calls.js';
import { Budget, type PickleLimits } from './limits.js';
import { PyDict, PyDtype, PyGlobal, PendingArray } from './pyobjects.js';
import { Reader } from './reader.js';
import { latin1, utf8 } from './text.js';

export class MachineState {
  protected stack: unknown[] = [];
  protected readonly marks: unknown[][] = [];
  // Values held in the stacks saved by MARK.
  protected saved = 0;
  // Dense in practice (MEMOIZE numbers entries in order); a missing entry is undefined.
  protected readonly memo: unknown[] = [];
  protected memoSize = 0;
  protected readonly r: Reader;
  protected readonly budget: Budget;
  protected readonly tags: Tags = newTags();

  constructor(
    bytes: Uint8Array,
    protected readonly limits: PickleLimits,
  ) {
    this.r = new Reader(bytes);
    this.budget = new Budget(limits);
  }

  protected push(v: unknown): void {
    if (this.stack.length + this.saved >= this.limits.maxStack) throw new DecodeError('pickle: stack too large');
    this.stack.push(v);
  }

  protected pop(): unknown {
    if (this.stack.length === 0) throw new DecodeError('pickle: stack underflow');
    return this.stack.pop();
  }

  protected top(): unknown {
    if (this.stack.length === 0) throw new DecodeError('pickle: stack underflow');
    return this.stack[this.stack.length - 1];
  }

  protected popMark(): unknown[] {
    const items = this.stack;
    const prev = this.marks.pop();
    if (prev === undefined) throw new DecodeError('pickle: MARK missing');
    this.saved -= prev.length;
    this.stack = prev;
    return items;
  }

  protected put(index: number): void {
    const v = this.top();
    if (this.memo[index] === undefined) {
      if (this.memoSize >= this.limits.maxMemo) throw new DecodeError('pickle: memo too large');
      this.memoSize++;
    }
    this.memo[index] = v;
  }

  protected get(index: number): void {
    const v = this.memo[index];
    if (v === undefined) throw new DecodeError(`pickle: memo entry ${index} missing`);
    this.push(v);
  }

  protected textLine(max: number, asUtf8 = false): string {
    const [start, end] = this.r.line(max);
    return asUtf8 ? utf8(this.r.buf, start, end) : latin1(this.r.buf, start, end);
  }

  protected textIndex(): number {
    const s = this.textLine(20);
    if (!/^\d{1,15}$/.test(s)) throw new DecodeError('pickle: bad memo index');
    return Number(s);
  }

  protected checkLength(n: number): number {
    if (n > this.limits.maxStringBytes) throw new DecodeError('pickle: string too long');
    this.r.need(n);
    return n;
  }

  protected utf8Of(n: number): string {
    this.checkLength(n);
    const start = this.r.pos;
    this.r.pos += n;
    return utf8(this.r.buf, start, start + n);
  }

  protected latin1Of(n: number): string {
    this.checkLength(n);
    const start = this.r.pos;
    this.r.pos += n;
    return latin1(this.r.buf, start, start + n);
  }

  protected bytesOf(n: number): Uint8Array {
    return this.r.take(this.checkLength(n));
  }

  protected listOf(v: unknown): unknown[] {
    if (!Array.isArray(v) || !this.tags.lists.has(v)) throw new DecodeError('pickle: APPEND to something that is not a list');
    return v;
  }

  protected dictOf(v: unknown): PyDict {
    if (!(v instanceof PyDict)) throw new DecodeError('pickle: SETITEM on something that is not a dict');
    return v;
  }

  protected setItems(d: PyDict, items: unknown[]): void {
    if (items.length % 2 !== 0) throw new DecodeError('pickle: odd number of dict items');
    for (let i = 0; i < items.length; i += 2) d.set(this.hashable(items[i]), items[i + 1]);
  }

  // Dict keys and set members: what Python could hash, and nothing interpreter-only.
  protected hashable(k: unknown): unknown {
    if (k === null || typeof k !== 'object') return k;
    if (k instanceof Uint8Array) return k;
    if (Array.isArray(k) && this.tags.frozen.has(k)) return k;
    if (k instanceof PyDict || k instanceof PendingArray || k instanceof PyDtype || k instanceof PyGlobal || Array.isArray(k)) {
      throw new DecodeError('pickle: unhashable or unsupported dict key or set member');
    }
    throw new DecodeError('pickle: unsupported dict key or set member');
  }
}
