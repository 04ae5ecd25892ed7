// The pickle virtual machine, without the error wrapping of decodePickle: every refusal is an explicit DecodeError.
import { DecodeError } from '../codec.js';
import { build, newObject, reduce, tag } from './calls.js';
import { finalize } from './finalize.js';
import { lookupGlobal, printable } from './globals.js';
import type { PickleLimits } from './limits.js';
import { MachineState } from './machine-state.js';
import { OP } from './opcodes.js';
import { PyDict } from './pyobjects.js';
import { decodeLong, parseDecimal, parseFloatText, parseQuoted, parseRawUnicodeEscape } from './text.js';

export function unpickle(bytes: Uint8Array, limits: PickleLimits): unknown {
  return finalize(new Machine(bytes, limits).run(), limits);
}

// The opcode loop; the state and its checked accessors are MachineState's.
class Machine extends MachineState {
  // biome-ignore lint/complexity/noExcessiveLinesPerFunction: one case per opcode, each a few lines; split, the dispatch would cost a call per opcode
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
}
