// numpy dtypes as the pickle encoder writes them (encode-numpy.ts): numpy.dtype(name, False, True)
// then BUILD with the state tuple numpy's own pickler gives, for one column or a structured record.
import { OP, type PickleWriter } from './encode-writer.js';

// One column's dtype as encode-numpy.ts lays it out.
export interface Layout {
  name: string; // numpy.dtype's first argument: 'u4', 'b1', 'U16', ...
  order: '<' | '|';
  itemsize: number;
  flags: number; // numpy's dtype flags (8 = NPY_NEEDS_INIT for U)
  strings?: { values: string[]; width: number };
}

export function writeGlobal(w: PickleWriter, module: string, name: string): void {
  w.string(module);
  w.string(name);
  w.op(OP.STACK_GLOBAL);
}

// numpy.dtype(name, False, True) then BUILD with its state tuple.
function writeDtypeHead(w: PickleWriter, name: string): void {
  writeGlobal(w, 'numpy', 'dtype');
  w.string(name);
  w.bool(false);
  w.bool(true);
  w.op(OP.TUPLE3);
  w.op(OP.REDUCE);
  w.op(OP.MARK);
  w.int32(3);
}

export function writeSimpleDtype(w: PickleWriter, lay: Layout): void {
  writeDtypeHead(w, lay.name);
  w.string(lay.order);
  w.none(); // subarray
  w.none(); // names
  w.none(); // fields
  // numpy records -1 for the size and alignment of fixed-size builtins, the real ones for flexible types.
  w.int(lay.strings ? lay.itemsize : -1);
  w.int32(lay.strings ? 4 : -1);
  w.int32(lay.flags);
  w.op(OP.TUPLE);
  w.op(OP.BUILD);
}

export function writeStructDtype(w: PickleWriter, fields: { name: string; lay: Layout; offset: number }[], itemsize: number): void {
  writeDtypeHead(w, `V${itemsize}`);
  w.string('|');
  w.none(); // subarray
  // names
  if (fields.length > 3) w.op(OP.MARK);
  for (const f of fields) w.string(f.name);
  w.op(fields.length === 1 ? OP.TUPLE1 : fields.length === 2 ? OP.TUPLE2 : fields.length === 3 ? OP.TUPLE3 : OP.TUPLE);
  // fields: {name: (dtype, offset)}
  w.op(OP.EMPTY_DICT);
  for (let i = 0; i < fields.length; i += 1000) {
    const batch = fields.slice(i, i + 1000);
    const single = fields.length === 1; // SETITEM only for a one-entry dict, as the C pickler
    if (!single) w.op(OP.MARK);
    for (const f of batch) {
      w.string(f.name);
      writeSimpleDtype(w, f.lay);
      w.int(f.offset);
      w.op(OP.TUPLE2);
    }
    w.op(single ? OP.SETITEM : OP.SETITEMS);
  }
  w.int(itemsize);
  w.int32(1); // packed: alignment 1
  // NPY_NEEDS_PYAPI for any structured type, plus what its fields need (NPY_NEEDS_INIT for U).
  w.int32(fields.reduce((flags, f) => flags | f.lay.flags, 16));
  w.op(OP.TUPLE);
  w.op(OP.BUILD);
}
