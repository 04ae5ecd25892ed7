// The pickle virtual machine, without the error wrapping of decodePickle: every refusal is an explicit DecodeError.
import { DecodeError } from '../codec.js';
import { build, newObject, newTags, reduce, tag, type Tags } from './calls.js';
import { finalize } from './finalize.js';
import { lookupGlobal, printable } from './globals.js';
import { Budget, type PickleLimits } from './limits.js';
import { OP } from './opcodes.js';
import { PyDict, PyDtype, PyGlobal, PendingArray } from './pyobjects.js';
import { Reader } from './reader.js';
import { decodeLong, latin1, parseDecimal, parseFloatText, parseQuoted, parseRawUnicodeEscape, utf8 } from './text.js';

export function unpickle(bytes: Uint8Array, limits: PickleLimits): unknown {
  return finalize(new Machine(bytes, limits).run(), limits);
}

class Machine {
  private stack: unknown[] = [];
  private readonly marks: unknown[][] = [];
  // Values held in the stacks saved by MARK.
  private saved = 0;
  // Dense in practice (MEMOIZE numbers entries in order); a missing entry is undefined.
  private readonly memo: unknown[] = [];
  private memoSize = 0;
  private readonly r: Reader;
  private readonly budget: Budget;
  private readonly tags: Tags = newTags();

  constructor(
    bytes: Uint8Array,
    private readonly limits: PickleLimits,
  ) {
    this.r = new Reader(bytes);
    this.budget = new Budget(limits);
  }

  run(): unknown {
    const r = this.r;
    const L = this.limits;
    for (;;) {
      const op = r.opcode();
      switch (op) {
        case OP.PROTO: {
          const p = r.u8();
          if (p > 5) throw new DecodeError(`pickle: unsupported protocol ${p}`);
          break;
        }
        case OP.FRAME:
          r.frame(r.u64());
          break;
        case OP.STOP: {
          const v = this.pop();
          if (this.stack.length !== 0 || this.marks.length !== 0) throw new DecodeError('pickle: unbalanced stack at STOP');
          if (!r.atEnd) throw new DecodeError('pickle: trailing bytes after STOP');
          return v;
        }
        case OP.MARK:
          if (this.marks.length >= L.maxDepth) throw new DecodeError('pickle: nested too deeply');
          this.marks.push(this.stack);
          this.saved += this.stack.length;
          this.stack = [];
          break;
        case OP.POP:
          if (this.stack.length) this.stack.pop();
          else this.popMark();
          break;
        case OP.POP_MARK:
          this.popMark();
          break;
        case OP.DUP:
          this.push(this.top());
          break;

        // memo
        case OP.PUT:
          this.put(this.textIndex());
          break;
        case OP.BINPUT:
          this.put(r.u8());
          break;
        case OP.LONG_BINPUT:
          this.put(r.u32());
          break;
        case OP.MEMOIZE:
          this.put(this.memoSize);
          break;
        case OP.GET:
          this.get(this.textIndex());
          break;
        case OP.BINGET:
          this.get(r.u8());
          break;
        case OP.LONG_BINGET:
          this.get(r.u32());
          break;

        // scalars
        case OP.NONE:
          this.push(null);
          break;
        case OP.NEWTRUE:
          this.push(true);
          break;
        case OP.NEWFALSE:
          this.push(false);
          break;
        case OP.INT: {
          const s = this.textLine(L.maxIntBytes);
          this.push(s === '00' ? false : s === '01' ? true : parseDecimal(s));
          break;
        }
        case OP.LONG: {
          const s = this.textLine(L.maxIntBytes);
          this.push(parseDecimal(s.endsWith('L') ? s.slice(0, -1) : s));
          break;
        }
        case OP.BININT:
          this.push(r.i32());
          break;
        case OP.BININT1:
          this.push(r.u8());
          break;
        case OP.BININT2:
          this.push(r.u16());
          break;
        case OP.LONG1:
          this.push(decodeLong(r.take(r.u8())));
          break;
        case OP.LONG4: {
          const n = r.i32();
          if (n < 0 || n > L.maxIntBytes) throw new DecodeError('pickle: bad LONG4 length');
          this.push(decodeLong(r.take(n)));
          break;
        }
        case OP.FLOAT:
          this.push(parseFloatText(this.textLine(64)));
          break;
        case OP.BINFLOAT:
          this.push(r.f64be());
          break;

        // text and bytes
        case OP.STRING:
          this.push(parseQuoted(this.textLine(L.maxStringBytes)));
          break;
        case OP.BINSTRING: {
          const n = r.i32();
          if (n < 0) throw new DecodeError('pickle: negative BINSTRING length');
          this.push(this.latin1Of(n));
          break;
        }
        case OP.SHORT_BINSTRING:
          this.push(this.latin1Of(r.u8()));
          break;
        case OP.UNICODE:
          this.push(parseRawUnicodeEscape(this.textLine(L.maxStringBytes)));
          break;
        case OP.SHORT_BINUNICODE:
          this.push(this.utf8Of(r.u8()));
          break;
        case OP.BINUNICODE:
          this.push(this.utf8Of(r.u32()));
          break;
        case OP.BINUNICODE8:
          this.push(this.utf8Of(r.u64()));
          break;
        case OP.SHORT_BINBYTES:
          this.push(this.bytesOf(r.u8()));
          break;
        case OP.BINBYTES:
          this.push(this.bytesOf(r.u32()));
          break;
        case OP.BINBYTES8:
        case OP.BYTEARRAY8:
          this.push(this.bytesOf(r.u64()));
          break;

        // containers
        case OP.EMPTY_LIST:
          this.push(tag(this.tags.lists, []));
          break;
        case OP.LIST:
          this.push(tag(this.tags.lists, this.popMark()));
          break;
        case OP.APPEND: {
          const v = this.pop();
          this.listOf(this.top()).push(v);
          break;
        }
        case OP.APPENDS: {
          const items = this.popMark();
          const list = this.listOf(this.top());
          for (const v of items) list.push(v);
          break;
        }
        case OP.EMPTY_TUPLE:
          this.push(tag(this.tags.frozen, []));
          break;
        case OP.TUPLE:
          this.push(tag(this.tags.frozen, this.popMark()));
          break;
        case OP.TUPLE1:
        case OP.TUPLE2:
        case OP.TUPLE3: {
          const n = op - OP.TUPLE1 + 1;
          if (this.stack.length < n) throw new DecodeError('pickle: stack underflow');
          this.push(tag(this.tags.frozen, this.stack.splice(this.stack.length - n, n)));
          break;
        }
        case OP.EMPTY_DICT:
          this.push(new PyDict());
          break;
        case OP.DICT: {
          const d = new PyDict();
          this.setItems(d, this.popMark());
          this.push(d);
          break;
        }
        case OP.SETITEM: {
          const v = this.pop();
          const k = this.pop();
          this.setItems(this.dictOf(this.top()), [k, v]);
          break;
        }
        case OP.SETITEMS: {
          const items = this.popMark();
          this.setItems(this.dictOf(this.top()), items);
          break;
        }
        case OP.EMPTY_SET:
          this.push(tag(this.tags.sets, []));
          break;
        case OP.ADDITEMS: {
          const items = this.popMark();
          const set = this.top();
          if (!Array.isArray(set) || !this.tags.sets.has(set)) throw new DecodeError('pickle: ADDITEMS on something that is not a set');
          for (const v of items) set.push(this.hashable(v));
          break;
        }
        case OP.FROZENSET: {
          const items = this.popMark();
          for (const v of items) this.hashable(v);
          this.push(tag(this.tags.frozen, items));
          break;
        }

        // globals and reconstruction
        case OP.GLOBAL: {
          const module = this.textLine(1024, true);
          const name = this.textLine(1024, true);
          this.push(lookupGlobal(module, name));
          break;
        }
        case OP.STACK_GLOBAL: {
          const name = this.pop();
          const module = this.pop();
          this.push(lookupGlobal(module, name));
          break;
        }
        case OP.INST: {
          const module = this.textLine(1024, true);
          const name = this.textLine(1024, true);
          lookupGlobal(module, name);
          throw new DecodeError(`pickle: INST of ${printable(`${module}.${name}`)} is not supported`);
        }
        case OP.REDUCE: {
          const args = this.pop();
          const fn = this.pop();
          this.push(reduce(fn, args, this.budget, this.tags));
          break;
        }
        case OP.NEWOBJ: {
          const args = this.pop();
          const cls = this.pop();
          this.push(newObject(cls, args, this.budget, this.tags));
          break;
        }
        case OP.NEWOBJ_EX: {
          const kwargs = this.pop();
          const args = this.pop();
          const cls = this.pop();
          if (!(kwargs instanceof PyDict) || kwargs.size !== 0) throw new DecodeError('pickle: NEWOBJ_EX with keyword arguments');
          this.push(newObject(cls, args, this.budget, this.tags));
          break;
        }
        case OP.BUILD: {
          const state = this.pop();
          build(this.top(), state, this.budget);
          break;
        }
        case OP.READONLY_BUFFER:
          if (!(this.top() instanceof Uint8Array)) throw new DecodeError('pickle: READONLY_BUFFER on something that is not a buffer');
          break;
        case OP.NEXT_BUFFER:
          throw new DecodeError('pickle: out-of-band buffers are not supported');
        case OP.OBJ:
          throw new DecodeError('pickle: OBJ is not supported');
        case OP.PERSID:
        case OP.BINPERSID:
          throw new DecodeError('pickle: persistent ids are not supported');
        case OP.EXT1:
        case OP.EXT2:
        case OP.EXT4:
          throw new DecodeError('pickle: extension codes are not supported');
        default:
          throw new DecodeError(`pickle: unknown opcode 0x${op.toString(16).padStart(2, '0')} at ${r.pos - 1}`);
      }
    }
  }

  private push(v: unknown): void {
    if (this.stack.length + this.saved >= this.limits.maxStack) throw new DecodeError('pickle: stack too large');
    this.stack.push(v);
  }

  private pop(): unknown {
    if (this.stack.length === 0) throw new DecodeError('pickle: stack underflow');
    return this.stack.pop();
  }

  private top(): unknown {
    if (this.stack.length === 0) throw new DecodeError('pickle: stack underflow');
    return this.stack[this.stack.length - 1];
  }

  private popMark(): unknown[] {
    const items = this.stack;
    const prev = this.marks.pop();
    if (prev === undefined) throw new DecodeError('pickle: MARK missing');
    this.saved -= prev.length;
    this.stack = prev;
    return items;
  }

  private put(index: number): void {
    const v = this.top();
    if (this.memo[index] === undefined) {
      if (this.memoSize >= this.limits.maxMemo) throw new DecodeError('pickle: memo too large');
      this.memoSize++;
    }
    this.memo[index] = v;
  }

  private get(index: number): void {
    const v = this.memo[index];
    if (v === undefined) throw new DecodeError(`pickle: memo entry ${index} missing`);
    this.push(v);
  }

  private textLine(max: number, asUtf8 = false): string {
    const [start, end] = this.r.line(max);
    return asUtf8 ? utf8(this.r.buf, start, end) : latin1(this.r.buf, start, end);
  }

  private textIndex(): number {
    const s = this.textLine(20);
    if (!/^\d{1,15}$/.test(s)) throw new DecodeError('pickle: bad memo index');
    return Number(s);
  }

  private checkLength(n: number): number {
    if (n > this.limits.maxStringBytes) throw new DecodeError('pickle: string too long');
    this.r.need(n);
    return n;
  }

  private utf8Of(n: number): string {
    this.checkLength(n);
    const start = this.r.pos;
    this.r.pos += n;
    return utf8(this.r.buf, start, start + n);
  }

  private latin1Of(n: number): string {
    this.checkLength(n);
    const start = this.r.pos;
    this.r.pos += n;
    return latin1(this.r.buf, start, start + n);
  }

  private bytesOf(n: number): Uint8Array {
    return this.r.take(this.checkLength(n));
  }

  private listOf(v: unknown): unknown[] {
    if (!Array.isArray(v) || !this.tags.lists.has(v)) throw new DecodeError('pickle: APPEND to something that is not a list');
    return v;
  }

  private dictOf(v: unknown): PyDict {
    if (!(v instanceof PyDict)) throw new DecodeError('pickle: SETITEM on something that is not a dict');
    return v;
  }

  private setItems(d: PyDict, items: unknown[]): void {
    if (items.length % 2 !== 0) throw new DecodeError('pickle: odd number of dict items');
    for (let i = 0; i < items.length; i += 2) d.set(this.hashable(items[i]), items[i + 1]);
  }

  // Dict keys and set members: what Python could hash, and nothing interpreter-only.
  private hashable(k: unknown): unknown {
    if (k === null || typeof k !== 'object') return k;
    if (k instanceof Uint8Array) return k;
    if (Array.isArray(k) && this.tags.frozen.has(k)) return k;
    if (k instanceof PyDict || k instanceof PendingArray || k instanceof PyDtype || k instanceof PyGlobal || Array.isArray(k)) {
      throw new DecodeError('pickle: unhashable or unsupported dict key or set member');
    }
    throw new DecodeError('pickle: unsupported dict key or set member');
  }
}
