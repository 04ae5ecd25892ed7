// Items and users: dense indices, one msgpack record per entity, and the catalogue change stream.
// Every write is one Lua call for the whole request, so a request is applied entirely or not at all,
// and Redis does a handful of commands per request rather than several per entity.
import type { Connection } from './redis.js';
import type { StreamEntry } from './change-tail.js';
import { keys } from './keys.js';
import { defineScript, LUA_HELPERS, LuaFrame, type Script } from './lua.js';
import { throwIfOverQuota } from './quota-reply.js';
import { UNLIMITED, type Quotas } from '../config/quotas.js';

// Ids read per Redis call when a model loads its id table.
const ID_PAGE = 10_000;

export type EntityKind = 'item' | 'user';

// replace: the blob is the whole new record. cas: the same, but only if each entity's stored record
// is still `expected` (merges are computed by the caller from what it read).
export type WriteMode = 'replace' | 'cas';

export interface EntityWrite {
  id: string; // canonical id
  blob: Uint8Array; // the record (entity-record.ts)
  expected?: Uint8Array | undefined; // cas: the record read before (empty: there was none)
}

export type WriteResult =
  | { kind: 'written'; created: boolean[]; modified: boolean[]; idxs: number[]; change: string | undefined }
  | { kind: 'no-database' }
  | { kind: 'conflict' }; // cas: a record changed since it was read; nothing written

export interface StoredRecord {
  idx: number;
  blob: Buffer;
}

const CHANGES_KEPT = 100_000;

// KEYS: database record, index hash, index counter, reverse index, records hash, change stream.
// ARGV: kind, stride (2: id, blob; 3: id, blob, expected), the entities as one flat msgpack array
// (one argument instead of thousands keeps the client's per-argument cost out of bulk writes), the
// kind's quota (entities it may know; past it, a quota answer, nothing written).
// Returns {1, change id or '', flags ('0' unchanged, '1' created, '2' modified per entity), idx list},
// {-1} without the database, {-2} when a cas expectation fails (nothing written then).
const WRITE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local kind, stride = ARGV[1], tonumber(ARGV[2])
local b = cmsgpack.unpack(ARGV[3])
local n = #b / stride
local ids, known = {}, {}
for e = 1, n do ids[e] = b[(e - 1) * stride + 1] end
local idxs = hmget(KEYS[2], ids)
for e = 1, n do if idxs[e] then known[#known + 1] = idxs[e] end end
local got = #known > 0 and hmget(KEYS[5], known) or {}
local olds, j = {}, 0
for e = 1, n do
  if idxs[e] then j = j + 1; olds[e] = got[j] else olds[e] = false end
end
if stride == 3 then
  for e = 1, n do if (olds[e] or '') ~= b[e * 3] then return {-2} end end
end
local over = allocate(KEYS[2], KEYS[3], KEYS[4], ids, idxs, ARGV[4], kind .. 's')
if over then return over end
local set, changed, flags = {}, {}, {}
for e = 1, n do
  local blob, old = b[(e - 1) * stride + 2], olds[e]
  local flag = (not old) and '1' or (old ~= blob and '2' or '0')
  flags[e] = flag
  if flag ~= '0' then
    set[#set + 1] = idxs[e]; set[#set + 1] = blob
    changed[#changed + 1] = idxs[e]
  end
end
local change = ''
if #set > 0 then
  hset(KEYS[5], set)
  change = redis.call('XADD', KEYS[6], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', kind, 'op', 'put', 'idx', table.concat(changed, ','))
end
return {1, change, table.concat(flags), table.concat(idxs, ',')}
`;

// KEYS: index hash, records hash, change stream. ARGV: kind, ids... Returns {how many had records, change id or ''}.
const REMOVE = `${LUA_HELPERS}
local ids = {}
for i = 2, #ARGV do ids[#ids + 1] = ARGV[i] end
local idxs, removed = hmget(KEYS[1], ids), {}
for e = 1, #ids do
  if idxs[e] and redis.call('HDEL', KEYS[2], idxs[e]) == 1 then removed[#removed + 1] = idxs[e] end
end
local change = ''
if #removed > 0 then
  change = redis.call('XADD', KEYS[3], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', ARGV[1], 'op', 'delete', 'idx', table.concat(removed, ','))
end
return {#removed, change}
`;

// KEYS: index hash, records hash. ARGV: ids... Returns {idx or false per id, record or false per id}.
const READ = `${LUA_HELPERS}
local idxs = hmget(KEYS[1], ARGV)
local known = {}
for e = 1, #ARGV do if idxs[e] then known[#known + 1] = idxs[e] end end
local got = #known > 0 and hmget(KEYS[2], known) or {}
local blobs, j = {}, 0
for e = 1, #ARGV do
  if idxs[e] then j = j + 1; blobs[e] = got[j] else blobs[e] = false end
end
return {idxs, blobs}
`;

// KEYS: index counter, records hash. ARGV: first index, how many indices to look at.
// Returns {next index, indices handed out so far, record or false per index looked at}.
const SCAN = `${LUA_HELPERS}
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local start = tonumber(ARGV[1])
local stop = math.min(total, start + tonumber(ARGV[2]))
local list = {}
for i = start, stop - 1 do list[#list + 1] = tostring(i) end
return {stop, total, #list > 0 and hmget(KEYS[2], list) or {}}
`;

export interface Change {
  id: string; // stream entry id
  kind: string; // item | user; for op config, the name of the setting
  op: string; // put | delete | defs | config
  idxs: number[];
}

export interface ScanResult {
  records: StoredRecord[];
  next: number; // first index not looked at
  total: number; // indices handed out so far
}

export class EntitiesStore {
  private readonly writeScript: Script;
  private readonly readScript: Script;
  private readonly removeScript: Script;
  private readonly scanScript: Script;

  constructor(
    private readonly redis: Connection,
    private readonly quotas: Quotas = UNLIMITED,
  ) {
    this.writeScript = defineScript(redis, 'recdEntityWrite', 6, WRITE);
    this.readScript = defineScript(redis, 'recdEntityRead', 2, READ, true);
    this.removeScript = defineScript(redis, 'recdEntityRemove', 3, REMOVE);
    this.scanScript = defineScript(redis, 'recdEntityScan', 2, SCAN, true);
  }

  async write(db: string, kind: EntityKind, mode: WriteMode, entities: EntityWrite[]): Promise<WriteResult> {
    const r = (await this.writeScript(
      keys.database(db),
      ...keys.entityIndexing(db, kind),
      keys.entityRecords(db, kind),
      keys.catalogueChanges(db),
      kind,
      mode === 'cas' ? '3' : '2',
      frameBatch(entities, mode === 'cas'),
      String(this.quotas[`${kind}s`]),
    )) as [number, string?, string?, string?];
    throwIfOverQuota(r);
    if (r[0] === -1) return { kind: 'no-database' };
    if (r[0] === -2) return { kind: 'conflict' };
    const flags = r[2]!;
    const created: boolean[] = [];
    const modified: boolean[] = [];
    for (let i = 0; i < flags.length; i++) {
      created.push(flags[i] === '1');
      modified.push(flags[i] === '2');
    }
    return { kind: 'written', created, modified, idxs: r[3]!.split(',').map(Number), change: r[1] || undefined };
  }

  // The stored record per id, in order; undefined where the entity has none.
  async read(db: string, kind: EntityKind, ids: string[]): Promise<(StoredRecord | undefined)[]> {
    if (ids.length === 0) return [];
    const [idxs, blobs] = (await this.readScript(keys.entityIndex(db, kind), keys.entityRecords(db, kind), ...ids)) as [
      (Buffer | null)[],
      (Buffer | null)[],
    ];
    return blobs.map((blob, i) => (blob ? { idx: Number(idxs[i]!.toString()), blob } : undefined));
  }

  // Canonical ids of dense indices [from, to), in order ('' for an index not handed out).
  async idsAt(db: string, kind: EntityKind, from: number, to: number): Promise<string[]> {
    const out: string[] = [];
    for (let start = from; start < to; start += ID_PAGE) {
      const idxs = Array.from({ length: Math.min(ID_PAGE, to - start) }, (_, k) => String(start + k));
      for (const id of await this.redis.hmget(keys.entityIds(db, kind), ...idxs)) out.push(id ?? '');
    }
    return out;
  }

  // Canonical ids at the dense indices given, in order ('' where none).
  async idsOf(db: string, kind: EntityKind, idxs: number[]): Promise<string[]> {
    if (idxs.length === 0) return [];
    return (await this.redis.hmget(keys.entityIds(db, kind), ...idxs.map(String))).map((id) => id ?? '');
  }

  // The stream of the database's catalogue changes (change-tail.ts tails it; changeOf reads an entry).
  changeStream(db: string): string {
    return keys.catalogueChanges(db);
  }

  // The dense index of a canonical id; undefined for an entity never written.
  async indexOf(db: string, kind: EntityKind, id: string): Promise<number | undefined> {
    const idx = await this.redis.hget(keys.entityIndex(db, kind), id);
    return idx === null ? undefined : Number(idx);
  }

  // Records at dense indices, in order; undefined where none exists.
  async readAt(db: string, kind: EntityKind, idxs: number[]): Promise<(Buffer | undefined)[]> {
    if (idxs.length === 0) return [];
    const blobs = await this.redis.hmgetBuffer(keys.entityRecords(db, kind), ...idxs.map(String));
    return blobs.map((b) => b ?? undefined);
  }

  // Walks the dense index: entities never move, so pages stay exact under concurrent writes.
  async scan(db: string, kind: EntityKind, start: number, span: number): Promise<ScanResult> {
    const [next, total, blobs] = (await this.scanScript(
      keys.entityNext(db, kind),
      keys.entityRecords(db, kind),
      String(start),
      String(span),
    )) as [number, number, (Buffer | null)[]];
    const records: StoredRecord[] = [];
    blobs.forEach((blob, i) => blob && records.push({ idx: start + i, blob }));
    return { records, next, total };
  }

  async remove(db: string, kind: EntityKind, ids: string[]): Promise<{ removed: number; change: string | undefined }> {
    if (ids.length === 0) return { removed: 0, change: undefined };
    const [removed, change] = (await this.removeScript(
      keys.entityIndex(db, kind),
      keys.entityRecords(db, kind),
      keys.catalogueChanges(db),
      kind,
      ...ids,
    )) as [number, string];
    return { removed, change: change || undefined };
  }
}

// The batch for the write script: [id, blob, (expected,) id, ...].
function frameBatch(entities: EntityWrite[], cas: boolean): Buffer {
  let size = 5;
  for (const e of entities) size += 15 + e.id.length * 3 + e.blob.length + (cas ? (e.expected?.length ?? 0) : -5);
  const frame = new LuaFrame(size).array(entities.length * (cas ? 3 : 2));
  for (const e of entities) {
    frame.string(e.id).bytes(e.blob);
    if (cas) frame.bytes(e.expected ?? EMPTY);
  }
  return frame.done();
}

const EMPTY = new Uint8Array(0);

export function changeOf({ id, fields }: StreamEntry): Change {
  const idx = fields.get('idx');
  return { id, kind: fields.get('kind') ?? '', op: fields.get('op') ?? 'put', idxs: idx ? idx.split(',').map(Number) : [] };
}
