// Items and users: dense indices, property values per entity, and the catalogue change stream.
// Every write is one Lua call for the whole request, so a request is applied entirely or not at all.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';

export type EntityKind = 'item' | 'user';
export type WriteMode = 'replace' | 'merge' | 'merge-existing';

export interface EntityWrite {
  id: string; // canonical id
  values: Map<string, Buffer | null>; // property storage field -> msgpack value, null removes it
}

export type WriteResult =
  | { kind: 'written'; created: boolean[]; modified: boolean[] }
  | { kind: 'no-database' }
  | { kind: 'missing'; position: number }; // first entity that does not exist (merge-existing)

export interface EntityRecord {
  id: string;
  values: Map<string, Buffer>; // property storage field -> msgpack value
}

const ID_FIELD = '@id';
const CHANGES_KEPT = 100_000;

// KEYS: database record, index hash, index counter, change stream.
// ARGV: mode, kind, record key prefix, and the entities as one msgpack array of [id, [field, value,
// field, value, ...]] (an empty value removes the field): one argument instead of thousands keeps
// the client's per-argument cost out of bulk writes. Values are stored as the bytes given.
// Returns {1, created1, modified1, created2, ...}, {-1} without the database, {-2, position} when
// merge-existing meets an entity that does not exist (nothing written then).
const WRITE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local mode, kind, prefix = ARGV[1], ARGV[2], ARGV[3]
local entities = cmsgpack.unpack(ARGV[4])
if mode == 'merge-existing' then
  for e = 1, #entities do
    local idx = redis.call('HGET', KEYS[2], entities[e][1])
    if not idx or redis.call('EXISTS', prefix .. idx) == 0 then return {-2, e - 1} end
  end
end
local out, changed = {1}, {}
for e = 1, #entities do
  local id, fv = entities[e][1], entities[e][2]
  local idx = redis.call('HGET', KEYS[2], id)
  if not idx then
    idx = tostring(redis.call('INCR', KEYS[3]) - 1)
    redis.call('HSET', KEYS[2], id, idx)
  end
  local key = prefix .. idx
  local created = redis.call('EXISTS', key) == 0
  local modified, given, names = false, {}, {}
  for i = 1, #fv, 2 do names[#names + 1] = fv[i] end
  local old = #names > 0 and redis.call('HMGET', key, unpack(names)) or {}
  local set, del = {'${ID_FIELD}', id}, {}
  for i = 1, #fv, 2 do
    local f, v, was = fv[i], fv[i + 1], old[(i + 1) / 2]
    given[f] = true
    if v == '' then
      if was then del[#del + 1] = f end
    elseif was ~= v then
      set[#set + 1] = f; set[#set + 1] = v
    end
  end
  if mode == 'replace' and not created then
    for _, f in ipairs(redis.call('HKEYS', key)) do
      if f ~= '${ID_FIELD}' and not given[f] then del[#del + 1] = f end
    end
  end
  if #del > 0 then redis.call('HDEL', key, unpack(del)); modified = true end
  if #set > 2 then modified = true end
  redis.call('HSET', key, unpack(set))
  if created or modified then changed[#changed + 1] = idx end
  out[#out + 1] = created and 1 or 0
  out[#out + 1] = (modified and not created) and 1 or 0
end
if #changed > 0 then
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', kind, 'op', 'put', 'idx', table.concat(changed, ','))
end
return out
`;

// KEYS: index hash, change stream. ARGV: kind, record key prefix, ids... Returns how many had values.
const REMOVE = `
local removed = {}
for i = 3, #ARGV do
  local idx = redis.call('HGET', KEYS[1], ARGV[i])
  if idx and redis.call('DEL', ARGV[2] .. idx) == 1 then removed[#removed + 1] = idx end
end
if #removed > 0 then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', ARGV[1], 'op', 'delete', 'idx', table.concat(removed, ','))
end
return #removed
`;

// KEYS: index hash. ARGV: record key prefix, ids... Returns one field/value list per id (empty when absent).
const READ = `
local out = {}
for i = 2, #ARGV do
  local idx = redis.call('HGET', KEYS[1], ARGV[i])
  out[#out + 1] = idx and redis.call('HGETALL', ARGV[1] .. idx) or {}
end
return out
`;

// KEYS: index counter. ARGV: record key prefix, first index, how many indices to look at.
// Returns {next index, indices handed out so far, {idx, field/value list, idx, ...}} for those with values.
const SCAN = `
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = tonumber(ARGV[2])
local stop = math.min(total, start + tonumber(ARGV[3]))
local out = {}
for i = start, stop - 1 do
  local rec = redis.call('HGETALL', ARGV[1] .. i)
  if #rec > 0 then out[#out + 1] = i; out[#out + 1] = rec end
end
return {stop, total, out}
`;

export interface Change {
  id: string; // stream entry id
  kind: EntityKind;
  idxs: number[];
}

export interface ChangesResult {
  first: string | undefined; // oldest entry kept in the stream
  last: string | undefined; // newest entry
  entries: Change[]; // entries after the given id, oldest first
}

export interface ScanResult {
  records: (EntityRecord & { idx: number })[];
  next: number; // first index not looked at
  total: number; // indices handed out so far
}

type Script = (...args: (string | Buffer)[]) => Promise<unknown>;

export class EntitiesStore {
  private readonly writeScript: Script;
  private readonly readScript: Script;
  private readonly removeScript: Script;
  private readonly scanScript: Script;

  // Scripts are registered once and run by EVALSHA; the *Buffer variant returns raw bytes.
  constructor(private readonly redis: Redis) {
    redis.defineCommand('recdEntityWrite', { numberOfKeys: 4, lua: WRITE });
    redis.defineCommand('recdEntityRead', { numberOfKeys: 1, lua: READ });
    redis.defineCommand('recdEntityRemove', { numberOfKeys: 2, lua: REMOVE });
    redis.defineCommand('recdEntityScan', { numberOfKeys: 1, lua: SCAN });
    const r = redis as unknown as Record<string, Script>;
    this.writeScript = r.recdEntityWrite!.bind(redis);
    this.readScript = r.recdEntityReadBuffer!.bind(redis);
    this.removeScript = r.recdEntityRemove!.bind(redis);
    this.scanScript = r.recdEntityScanBuffer!.bind(redis);
  }

  // The change stream after `after` (exclusive), with its first and last ids to spot trimming.
  async changes(db: string, after: string): Promise<ChangesResult> {
    const key = keys.catalogueChanges(db);
    const res = await this.redis.multi().xrange(key, '-', '+', 'COUNT', 1).xrevrange(key, '+', '-', 'COUNT', 1).xrange(key, `(${after}`, '+').exec();
    const one = (i: number) => (res?.[i]?.[1] as [string, string[]][] | undefined)?.[0]?.[0];
    const entries = ((res?.[2]?.[1] as [string, string[]][] | undefined) ?? []).map(([id, fields]) => {
      const f = new Map<string, string>();
      for (let i = 0; i < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
      return { id, kind: f.get('kind') as EntityKind, idxs: (f.get('idx') ?? '').split(',').filter(Boolean).map(Number) };
    });
    return { first: one(0), last: one(1), entries };
  }

  // Records at dense indices, in order; undefined where none exists.
  async readAt(db: string, kind: EntityKind, idxs: number[]): Promise<(EntityRecord | undefined)[]> {
    if (idxs.length === 0) return [];
    const tx = this.redis.pipeline();
    for (const i of idxs) tx.hgetallBuffer(keys.entityRecordPrefix(db, kind) + i);
    const res = (await tx.exec()) ?? [];
    return res.map(([err, hash]) => {
      if (err) throw err;
      const flat: Buffer[] = [];
      for (const [f, v] of Object.entries(hash as Record<string, Buffer>)) flat.push(Buffer.from(f), v);
      return flat.length === 0 ? undefined : toRecord(flat);
    });
  }

  // Walks the dense index: entities never move, so pages stay exact under concurrent writes.
  async scan(db: string, kind: EntityKind, start: number, span: number): Promise<ScanResult> {
    const [next, total, flat] = (await this.scanScript(keys.entityNext(db, kind), keys.entityRecordPrefix(db, kind), String(start), String(span))) as [
      number,
      number,
      (number | Buffer[])[],
    ];
    const records: ScanResult['records'] = [];
    for (let i = 0; i < flat.length; i += 2) records.push({ idx: flat[i] as number, ...toRecord(flat[i + 1] as Buffer[]) });
    return { records, next, total };
  }

  async write(db: string, kind: EntityKind, mode: WriteMode, entities: EntityWrite[]): Promise<WriteResult> {
    const r = (await this.writeScript(
      keys.database(db),
      keys.entityIndex(db, kind),
      keys.entityNext(db, kind),
      keys.catalogueChanges(db),
      mode,
      kind,
      keys.entityRecordPrefix(db, kind),
      frameBatch(entities),
    )) as number[];
    if (r[0] === -1) return { kind: 'no-database' };
    if (r[0] === -2) return { kind: 'missing', position: r[1]! };
    const created: boolean[] = [];
    const modified: boolean[] = [];
    for (let i = 1; i < r.length; i += 2) {
      created.push(r[i] === 1);
      modified.push(r[i + 1] === 1);
    }
    return { kind: 'written', created, modified };
  }

  // One record per id, in order; undefined where the entity has no values.
  async read(db: string, kind: EntityKind, ids: string[]): Promise<(EntityRecord | undefined)[]> {
    if (ids.length === 0) return [];
    const lists = (await this.readScript(keys.entityIndex(db, kind), keys.entityRecordPrefix(db, kind), ...ids)) as Buffer[][];
    return lists.map((flat) => (flat.length === 0 ? undefined : toRecord(flat)));
  }

  async remove(db: string, kind: EntityKind, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return (await this.removeScript(keys.entityIndex(db, kind), keys.catalogueChanges(db), kind, keys.entityRecordPrefix(db, kind), ...ids)) as number;
  }
}

function toRecord(flat: Buffer[]): EntityRecord {
  const values = new Map<string, Buffer>();
  let id = '';
  for (let i = 0; i < flat.length; i += 2) {
    const field = flat[i]!.toString();
    if (field === ID_FIELD) id = flat[i + 1]!.toString();
    else values.set(field, flat[i + 1]!);
  }
  return { id, values };
}

// The batch for the write script as msgpack that Redis's bundled cmsgpack reads: it predates the
// msgpack `bin` type that libraries use for byte strings, so byte strings go as raw32 (0xdb) and
// arrays as array32 (0xdd), forms it has always read. Shape: [[id, [field, value, ...]], ...].
function frameBatch(entities: EntityWrite[]): Buffer {
  const parts: Buffer[] = [];
  const header = (tag: number, n: number) => {
    const h = Buffer.allocUnsafe(5);
    h[0] = tag;
    h.writeUInt32BE(n, 1);
    parts.push(h);
  };
  const raw = (bytes: Buffer | string) => {
    const b = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    header(0xdb, b.length);
    parts.push(b);
  };
  header(0xdd, entities.length);
  for (const e of entities) {
    header(0xdd, 2);
    raw(e.id);
    header(0xdd, e.values.size * 2);
    for (const [field, value] of e.values) {
      raw(field);
      raw(value ?? EMPTY);
    }
  }
  return Buffer.concat(parts);
}

const EMPTY = Buffer.alloc(0);
