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
// ARGV: mode, kind, record key prefix, entity count, then per entity: id, field count, field/value pairs
// ('' value removes the field). Returns {1, created1, modified1, created2, ...}, {-1} without the
// database, {-2, position} when merge-existing meets an entity without values (nothing written then).
const WRITE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local mode, kind, prefix, n = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local starts, pos = {}, 5
for e = 1, n do
  starts[e] = pos
  if mode == 'merge-existing' then
    local idx = redis.call('HGET', KEYS[2], ARGV[pos])
    if not idx or redis.call('EXISTS', prefix .. idx) == 0 then return {-2, e - 1} end
  end
  pos = pos + 2 + 2 * tonumber(ARGV[pos + 1])
end
local out, changed = {1}, {}
for e = 1, n do
  local p = starts[e]
  local id, nf = ARGV[p], tonumber(ARGV[p + 1])
  local idx = redis.call('HGET', KEYS[2], id)
  if not idx then
    idx = tostring(redis.call('INCR', KEYS[3]) - 1)
    redis.call('HSET', KEYS[2], id, idx)
  end
  local key = prefix .. idx
  local created = redis.call('EXISTS', key) == 0
  local modified, given = false, {}
  for i = p + 2, p + 1 + 2 * nf, 2 do
    local f, v = ARGV[i], ARGV[i + 1]
    given[f] = true
    local old = redis.call('HGET', key, f)
    if v == '' then
      if old then modified = true; redis.call('HDEL', key, f) end
    elseif old ~= v then
      modified = true
      redis.call('HSET', key, f, v)
    end
  end
  if mode == 'replace' and not created then
    for _, f in ipairs(redis.call('HKEYS', key)) do
      if f ~= '${ID_FIELD}' and not given[f] then modified = true; redis.call('HDEL', key, f) end
    end
  end
  redis.call('HSET', key, '${ID_FIELD}', id)
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
  constructor(redis: Redis) {
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
    const args: (string | Buffer)[] = [mode, kind, keys.entityRecordPrefix(db, kind), String(entities.length)];
    for (const e of entities) {
      args.push(e.id, String(e.values.size));
      for (const [field, value] of e.values) args.push(field, value ?? '');
    }
    const r = (await this.writeScript(keys.database(db), keys.entityIndex(db, kind), keys.entityNext(db, kind), keys.catalogueChanges(db), ...args)) as number[];
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
