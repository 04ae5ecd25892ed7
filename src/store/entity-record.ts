// One item's or user's record as stored: a msgpack array [id, seq, value, seq, value, ...] where
// seq is the property's storage sequence (PropertyDef.seq), in ascending order, so equal records
// are equal bytes (the write script compares bytes to tell a modified entity from an unchanged one).
// Integer keys instead of names keep the encoding cheap: the only strings are the id and values.
import { pack, unpack } from './msgpack-values.js';

export interface EntityRecord {
  id: string;
  values: Record<number, unknown>; // property storage sequence -> value
}

// Integer keys of a plain object iterate in ascending order, which gives the canonical order.
export function encodeRecord(id: string, values: Record<number, unknown>): Buffer {
  const out: unknown[] = [id];
  for (const seq in values) if (values[seq] !== undefined) out.push(Number(seq), values[seq]);
  return pack(out);
}

export function decodeRecord(blob: Uint8Array): EntityRecord {
  const flat = unpack<unknown[]>(blob as Buffer)!;
  const values: Record<number, unknown> = {};
  for (let i = 1; i < flat.length; i += 2) values[flat[i] as number] = flat[i + 1];
  return { id: flat[0] as string, values };
}
