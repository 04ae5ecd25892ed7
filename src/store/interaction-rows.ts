// Interactions as the store holds them: a request's rows, stored chunks (layout at the top of
// interactions-store.ts) and their encoding and decoding.
import { LuaFrame, type LuaValue } from './lua.js';

export type Owner = 'user' | 'session';

export interface InteractionRow {
  owner: number; // position in owners
  item: number; // position in items
  type: string;
  timestamp: number;
  properties: Uint8Array | undefined; // msgpack
  rating: number; // inferred rating of the row's type
  replace: boolean; // the rule's combine: replace (else max)
  recommendation: string | undefined; // properties.recommendation_id: the answer it follows (services/outcomes/)
}

export interface InteractionBatch {
  owners: string[]; // distinct canonical user or session ids
  items: string[]; // distinct canonical item ids
  rows: InteractionRow[];
}

export interface StoredInteraction {
  owner: string; // user or session id
  item: string;
  type: string;
  timestamp: number;
  properties: Buffer | undefined;
}

// Rows per stored chunk: a listing reads whole chunks, so they stay small.
export const CHUNK_ROWS = 256;
export const ROW_FIELDS = 7;

export function parseLink(v: string): { user: string; timestamp: number } {
  const space = v.indexOf(' ');
  return { timestamp: Number(v.slice(0, space)), user: v.slice(space + 1) };
}

// "<chunk> <row>"
export function parseRef(ref: string): [number, number] {
  const space = ref.indexOf(' ');
  return [Number(ref.slice(0, space)), Number(ref.slice(space + 1))];
}

export const rowCount = (chunk: LuaValue[]) => (chunk[2] as LuaValue[]).length / ROW_FIELDS;
export const text = (v: LuaValue) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString() : String(v));

// Row `row` of a chunk; undefined when it was forgotten.
export function rowOf(chunk: LuaValue[], row: number): StoredInteraction | undefined {
  const [owners, items, rows] = chunk as [LuaValue[], LuaValue[], LuaValue[]];
  const at = row * ROW_FIELDS;
  const type = text(rows[at + 2]!);
  if (type === '') return undefined;
  const props = rows[at + 4] as Uint8Array;
  return {
    owner: text(owners[rows[at] as number]!),
    item: text(items[rows[at + 1] as number]!),
    type,
    timestamp: Number(text(rows[at + 3]!)),
    properties: props instanceof Uint8Array && props.length > 0 ? Buffer.from(props.buffer, props.byteOffset, props.byteLength) : undefined,
  };
}

// The request's distinct owners and items, for the script to give them dense indices.
export function idsFrame(b: InteractionBatch): Buffer {
  const f = new LuaFrame(64 + (b.owners.length + b.items.length) * 48).array(2).array(b.owners.length);
  for (const o of b.owners) f.string(o);
  f.array(b.items.length);
  for (const i of b.items) f.string(i);
  return f.done();
}

// The rows as stored: chunks of CHUNK_ROWS rows, each with its own owner and item lists.
export function chunks(b: InteractionBatch): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < b.rows.length; start += CHUNK_ROWS) {
    const rows = b.rows.length <= CHUNK_ROWS ? b.rows : b.rows.slice(start, start + CHUNK_ROWS);
    const owners = new Map<number, number>();
    const items = new Map<number, number>();
    for (const r of rows) {
      if (!owners.has(r.owner)) owners.set(r.owner, owners.size);
      if (!items.has(r.item)) items.set(r.item, items.size);
    }
    const f = new LuaFrame(256 + rows.length * 96).array(3).array(owners.size);
    for (const o of owners.keys()) f.string(b.owners[o]!);
    f.array(items.size);
    for (const i of items.keys()) f.string(b.items[i]!);
    f.array(rows.length * ROW_FIELDS);
    for (const r of rows) {
      f.uint(owners.get(r.owner)!).uint(items.get(r.item)!).string(r.type).string(String(r.timestamp));
      if (r.properties) f.bytes(r.properties);
      else f.string('');
      f.string(String(r.rating)).string(r.replace ? 'r' : 'm');
    }
    out.push(f.done());
  }
  return out;
}
