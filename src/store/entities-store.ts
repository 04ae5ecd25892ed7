// Items and users: dense indices, property values per entity, and the catalogue change stream.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';

export type EntityKind = 'item' | 'user';
export type WriteMode = 'replace' | 'merge' | 'merge-existing';
export type WriteResult = { kind: 'written'; created: boolean; modified: boolean; idx: number } | { kind: 'no-database' } | { kind: 'missing' };

const ID_FIELD = '@id';
const CHANGES_KEPT = 100_000;

// KEYS: database record, index hash, index counter, change stream.
// ARGV: id, mode, kind, record key prefix, then field/value pairs ('' value: remove the field).
// Returns {status, created, modified, idx}: status -1 no database, -2 missing (merge-existing), 1 written.
const WRITE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0, 0, 0} end
local id, mode = ARGV[1], ARGV[2]
local idx = redis.call('HGET', KEYS[2], id)
if not idx then
  if mode == 'merge-existing' then return {-2, 0, 0, 0} end
  idx = tostring(redis.call('INCR', KEYS[3]) - 1)
  redis.call('HSET', KEYS[2], id, idx)
end
local key = ARGV[4] .. idx
local created = redis.call('EXISTS', key) == 0
if created and mode == 'merge-existing' then return {-2, 0, 0, 0} end
local modified = false
local given = {}
for i = 5, #ARGV, 2 do
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
  local fields = redis.call('HKEYS', key)
  for _, f in ipairs(fields) do
    if f ~= '${ID_FIELD}' and not given[f] then modified = true; redis.call('HDEL', key, f) end
  end
end
redis.call('HSET', key, '${ID_FIELD}', id)
if created or modified then
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', ARGV[3], 'op', 'put', 'idx', idx, 'id', id)
end
return {1, created and 1 or 0, (modified and not created) and 1 or 0, tonumber(idx)}
`;

// KEYS: index hash, change stream. ARGV: id, kind, record key prefix. Returns 1 when values were removed.
const REMOVE = `
local idx = redis.call('HGET', KEYS[1], ARGV[1])
if not idx then return 0 end
if redis.call('DEL', ARGV[3] .. idx) == 0 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', '${CHANGES_KEPT}', '*', 'kind', ARGV[2], 'op', 'delete', 'idx', idx, 'id', ARGV[1])
return 1
`;

// KEYS: index hash. ARGV: id, record key prefix. Returns the record's field/value list, empty when absent.
const READ = `
local idx = redis.call('HGET', KEYS[1], ARGV[1])
if not idx then return {} end
return redis.call('HGETALL', ARGV[2] .. idx)
`;

export interface EntityRecord {
  id: string;
  values: Map<string, Buffer>; // lower-cased property name -> msgpack value
}

type Script = (...args: (string | Buffer)[]) => Promise<unknown>;

export class EntitiesStore {
  private readonly writeScript: Script;
  private readonly readScript: Script;
  private readonly removeScript: Script;

  // Scripts are registered once and run by EVALSHA; the *Buffer variants return raw bytes.
  constructor(redis: Redis) {
    redis.defineCommand('recdEntityWrite', { numberOfKeys: 4, lua: WRITE });
    redis.defineCommand('recdEntityRead', { numberOfKeys: 1, lua: READ });
    redis.defineCommand('recdEntityRemove', { numberOfKeys: 2, lua: REMOVE });
    const r = redis as unknown as Record<string, Script>;
    this.writeScript = r.recdEntityWrite!.bind(redis);
    this.readScript = r.recdEntityReadBuffer!.bind(redis);
    this.removeScript = r.recdEntityRemove!.bind(redis);
  }

  // values: lower-cased property name -> msgpack value, or null to remove the value.
  async write(db: string, kind: EntityKind, id: string, mode: WriteMode, values: Map<string, Buffer | null>): Promise<WriteResult> {
    const args: (string | Buffer)[] = [id, mode, kind, keys.entityRecordPrefix(db, kind)];
    for (const [field, value] of values) args.push(field, value ?? '');
    const r = (await this.writeScript(
      keys.database(db),
      keys.entityIndex(db, kind),
      keys.entityNext(db, kind),
      keys.catalogueChanges(db),
      ...args,
    )) as number[];
    if (r[0] === -1) return { kind: 'no-database' };
    if (r[0] === -2) return { kind: 'missing' };
    return { kind: 'written', created: r[1] === 1, modified: r[2] === 1, idx: r[3]! };
  }

  async read(db: string, kind: EntityKind, id: string): Promise<EntityRecord | undefined> {
    const flat = (await this.readScript(keys.entityIndex(db, kind), id, keys.entityRecordPrefix(db, kind))) as Buffer[];
    if (flat.length === 0) return undefined;
    const values = new Map<string, Buffer>();
    let recordId = id;
    for (let i = 0; i < flat.length; i += 2) {
      const field = flat[i]!.toString();
      if (field === ID_FIELD) recordId = flat[i + 1]!.toString();
      else values.set(field, flat[i + 1]!);
    }
    return { id: recordId, values };
  }

  async remove(db: string, kind: EntityKind, id: string): Promise<boolean> {
    return (await this.removeScript(keys.entityIndex(db, kind), keys.catalogueChanges(db), id, kind, keys.entityRecordPrefix(db, kind))) === 1;
  }
}
