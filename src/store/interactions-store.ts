// Interactions of users and anonymous sessions, their resolution to users, and the inferred ratings
// they make. Streams hold the interactions (one of all users, one of all sessions, one per user and
// per session); each request is one Lua call, so it is applied entirely or not at all.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';
import { defineScript, LUA_HELPERS, LuaFrame, type Script } from './lua.js';
import type { CountChange } from './ratings-store.js';

export type Owner = 'user' | 'session';

export interface InteractionRow {
  owner: number; // position in owners
  item: number; // position in items
  type: string;
  timestamp: number;
  properties: Uint8Array | undefined; // msgpack
  rating: number; // inferred rating of the row's type
  replace: boolean; // the rule's combine: replace (else max)
}

export interface InteractionBatch {
  owners: string[]; // distinct canonical user or session ids
  items: string[]; // distinct canonical item ids
  rows: InteractionRow[];
}

export interface StoredInteraction {
  id: string; // stream entry id
  owner: string; // user or session id (in the streams of all)
  item: string;
  type: string;
  timestamp: number;
  properties: Buffer | undefined;
}

// Lua: inferred ratings. Explicit ratings (origin byte 1) are never changed; `max` keeps the higher
// of the old and new inferred rating. Consecutive rows of the same (user, item) pair are combined in
// the script and written once, which is what writing them one by one would leave. Log records as in
// ratings-store.ts, op 'infer', one per pair written.
const INFER = `
local inferred = {added = 0, us = {}, is = {}, upos = {}, ipos = {}, recs = {}}
local cur = nil -- {prefix, user, item, rating, timestamp}: the pair being combined, not written yet
local function writeCurrent()
  if not cur then return end
  local prefix, uidx, iidx, rating, ts = cur[1], cur[2], cur[3], cur[4], cur[5]
  cur = nil
  redis.call('HSET', prefix .. uidx, iidx, struct.pack('>Bdd', 2, rating, ts))
  if not inferred.upos[uidx] then inferred.us[#inferred.us + 1] = uidx; inferred.upos[uidx] = #inferred.us - 1 end
  if not inferred.ipos[iidx] then inferred.is[#inferred.is + 1] = iidx; inferred.ipos[iidx] = #inferred.is - 1 end
  inferred.recs[#inferred.recs + 1] = struct.pack('>IIdd', inferred.upos[uidx], inferred.ipos[iidx], rating, ts)
end
local function infer(prefix, uidx, iidx, rating, replace, ts)
  if cur and cur[2] == uidx and cur[3] == iidx and cur[1] == prefix then
    if not replace and cur[4] > rating then rating = cur[4] end
    cur[4] = rating
    cur[5] = ts
    return
  end
  writeCurrent()
  local old = redis.call('HGET', prefix .. uidx, iidx)
  if old then
    local origin, was = struct.unpack('>Bd', old)
    if origin == 1 then return end
    if not replace and was > rating then rating = was end
  else
    inferred.added = inferred.added + 1
  end
  cur = {prefix, uidx, iidx, rating, ts}
end
local function flushInferred(countKey, nextKey, logKey)
  writeCurrent()
  if #inferred.recs > 0 then
    redis.call('XADD', logKey, '*', 'op', 'infer', 'u', table.concat(inferred.us, ','), 'i', table.concat(inferred.is, ','), 'r', table.concat(inferred.recs))
  end
  return counted(countKey, nextKey, tonumber(redis.call('GET', countKey) or '0'), inferred.added)
end
`;

// KEYS: database, users index/counter/ids, items index/counter/ids, ratings count, ratings log,
// stream of all (users or sessions), resolved sessions, next threshold.
// ARGV: 'user' or 'session', user ratings prefix, own streams prefix, frame
// [owners, items, [owner, item, type, timestamp, properties or '', rating, 'r' or 'm', ...]].
// Returns {threshold reached (0: none), sessions of the request already resolved...}; {-1} without the database.
const ADD = `${LUA_HELPERS}${INFER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local kind, ratingsPrefix, ownPrefix = ARGV[1], ARGV[2], ARGV[3]
local b = cmsgpack.unpack(ARGV[4])
local owners, items = b[1], b[2]
local iidx = resolve(KEYS[5], KEYS[6], KEYS[7], items)
local uidx, resolved = {}, {}
if kind == 'user' then
  uidx = resolve(KEYS[2], KEYS[3], KEYS[4], owners)
else
  local links = hmget(KEYS[11], owners)
  local users = {}
  for o = 1, #owners do
    if links[o] then
      resolved[#resolved + 1] = owners[o]
      users[o] = string.sub(links[o], string.find(links[o], ' ') + 1)
    end
  end
  for o = 1, #owners do
    if users[o] then uidx[o] = resolve(KEYS[2], KEYS[3], KEYS[4], {users[o]})[1] end
  end
end
local field = kind == 'user' and 'u' or 's'
local rows = b[3]
for r = 1, #rows, 7 do
  local o, i = rows[r] + 1, rows[r + 1] + 1
  local f = {field, owners[o], 'i', items[i], 't', rows[r + 2], 'ts', rows[r + 3]}
  if rows[r + 4] ~= '' then f[#f + 1] = 'p'; f[#f + 1] = rows[r + 4] end
  local id = redis.call('XADD', KEYS[10], '*', unpack(f))
  f[1] = 'a'; f[2] = id
  redis.call('XADD', ownPrefix .. owners[o], '*', unpack(f))
  if uidx[o] then infer(ratingsPrefix, uidx[o], iidx[i], tonumber(rows[r + 5]), rows[r + 6] == 'r', tonumber(rows[r + 3])) end
end
local out = {flushInferred(KEYS[8], KEYS[12], KEYS[9])}
for k = 1, #resolved do out[#out + 1] = resolved[k] end
return out
`;

// KEYS: database, resolved, order, sequence, the user's sessions set, users index/counter/ids,
// items index, ratings count, ratings log, the session's stream, next threshold.
// ARGV: session id, user id, timestamp, user ratings prefix, rules [type, rating, 'r' or 'm', ...].
// The session's interactions so far become the user's inferred ratings.
// Returns {1, threshold reached (0: none)}; {0} when already resolved; {-1} without the database.
const RESOLVE = `${LUA_HELPERS}${INFER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ' ' .. ARGV[2])
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('SADD', KEYS[5], ARGV[1])
local u = resolve(KEYS[6], KEYS[7], KEYS[8], {ARGV[2]})[1]
local rules = cmsgpack.unpack(ARGV[5])
local rule = {}
for k = 1, #rules, 3 do rule[rules[k]] = {tonumber(rules[k + 1]), rules[k + 2] == 'r'} end
for _, e in ipairs(redis.call('XRANGE', KEYS[12], '-', '+')) do
  local f = {}
  for k = 1, #e[2], 2 do f[e[2][k]] = e[2][k + 1] end
  local r = rule[string.lower(f.t)]
  local i = redis.call('HGET', KEYS[9], f.i)
  if r and i then infer(ARGV[4], u, i, r[1], r[2], tonumber(f.ts)) end
end
return {1, flushInferred(KEYS[10], KEYS[13], KEYS[11])}
`;

// KEYS: the user's sessions set, resolved, order. Unlinks every session resolved to the user.
const UNLINK = `
local sessions = redis.call('SMEMBERS', KEYS[1])
for s = 1, #sessions, 4000 do
  local part = {unpack(sessions, s, math.min(s + 3999, #sessions))}
  redis.call('HDEL', KEYS[2], unpack(part))
  redis.call('ZREM', KEYS[3], unpack(part))
end
redis.call('DEL', KEYS[1])
return #sessions
`;

// KEYS: the owner's stream, the stream of all. Removes the owner's interactions from both.
const FORGET = `
local gone = {}
for _, e in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
  for k = 1, #e[2], 2 do if e[2][k] == 'a' then gone[#gone + 1] = e[2][k + 1] end end
end
for s = 1, #gone, 4000 do redis.call('XDEL', KEYS[2], unpack(gone, s, math.min(s + 3999, #gone))) end
redis.call('DEL', KEYS[1])
return #gone
`;


export type AddResult = { kind: 'added'; count: CountChange; resolved: string[] } | { kind: 'no-database' };

export class InteractionsStore {
  private readonly addScript: Script;
  private readonly resolveScript: Script;
  private readonly forgetScript: Script;
  private readonly unlinkScript: Script;

  constructor(private readonly redis: Redis) {
    this.addScript = defineScript(redis, 'recdInteractionsAdd', 12, ADD);
    this.resolveScript = defineScript(redis, 'recdSessionResolve', 13, RESOLVE);
    this.forgetScript = defineScript(redis, 'recdInteractionsForget', 2, FORGET);
    this.unlinkScript = defineScript(redis, 'recdSessionsUnlink', 3, UNLINK);
  }

  // Forgets which sessions were resolved to the user (their interactions stay the sessions').
  async unlinkUser(db: string, user: string): Promise<number> {
    return (await this.unlinkScript(keys.userSessionsPrefix(db) + user, keys.resolvedSessions(db), keys.resolvedOrder(db))) as number;
  }

  async add(db: string, owner: Owner, batch: InteractionBatch): Promise<AddResult> {
    const r = (await this.addScript(
      keys.database(db),
      ...keys.entityIndexing(db, 'user'),
      ...keys.entityIndexing(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      owner === 'user' ? keys.userInteractions(db) : keys.sessionInteractions(db),
      keys.resolvedSessions(db),
      keys.ratingsNextThreshold(db),
      owner,
      keys.userRatingsPrefix(db),
      keys.ownInteractionsPrefix(db, owner),
      frame(batch),
    )) as (number | string)[];
    if (r[0] === -1) return { kind: 'no-database' };
    return { kind: 'added', count: { threshold: r[0] as number }, resolved: r.slice(1) as string[] };
  }

  // rules: every type's rating and combine, to replay the session's interactions with.
  async resolve(db: string, session: string, user: string, timestamp: number, rules: [string, number, boolean][]): Promise<CountChange | 'already' | 'no-database'> {
    const f = new LuaFrame().array(rules.length * 3);
    for (const [type, rating, replace] of rules) f.string(type).string(String(rating)).string(replace ? 'r' : 'm');
    const r = (await this.resolveScript(
      keys.database(db),
      keys.resolvedSessions(db),
      keys.resolvedOrder(db),
      keys.resolvedSeq(db),
      keys.userSessionsPrefix(db) + user,
      ...keys.entityIndexing(db, 'user'),
      keys.entityIndex(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      keys.ownInteractionsPrefix(db, 'session') + session,
      keys.ratingsNextThreshold(db),
      session,
      user,
      String(timestamp),
      keys.userRatingsPrefix(db),
      f.done(),
    )) as number[];
    return r[0] === 1 ? { threshold: r[1]! } : r[0] === 0 ? 'already' : 'no-database';
  }

  // Sessions' links: user id and timestamp, undefined where not resolved.
  async links(db: string, sessions: string[]): Promise<({ user: string; timestamp: number } | undefined)[]> {
    if (sessions.length === 0) return [];
    return (await this.redis.hmget(keys.resolvedSessions(db), ...sessions)).map((v) => (v === null ? undefined : parseLink(v)));
  }

  // Resolved sessions in resolution order from position `from`; with `users`, only theirs.
  async resolvedPage(db: string, from: number, amt: number, users?: string[]): Promise<{ sessions: { session: string; user: string; timestamp: number }[]; next: number | undefined }> {
    let ids: string[];
    let more: boolean;
    if (users) {
      const tx = this.redis.pipeline();
      for (const u of new Set(users)) tx.smembers(keys.userSessionsPrefix(db) + u);
      const sets = ((await tx.exec()) ?? []).flatMap(([, v]) => v as string[]);
      const scores = sets.length > 0 ? await this.redis.zmscore(keys.resolvedOrder(db), ...sets) : [];
      const ordered = sets.map((s, k) => [s, Number(scores[k])] as const).sort((a, b) => a[1] - b[1]);
      ids = ordered.slice(from, from + amt).map(([s]) => s);
      more = ordered.length > from + amt;
    } else {
      const got = await this.redis.zrange(keys.resolvedOrder(db), String(from), String(from + amt));
      more = got.length > amt;
      ids = got.slice(0, amt);
    }
    const links = await this.links(db, ids);
    return {
      sessions: ids.flatMap((session, k) => (links[k] ? [{ session, ...links[k]! }] : [])),
      next: more ? from + amt : undefined,
    };
  }

  // One user's or session's interactions after `after` (a stream id; '-' from the start).
  async own(db: string, owner: Owner, id: string, after: string, amt: number): Promise<{ list: StoredInteraction[]; more: boolean }> {
    const got = await this.redis.xrangeBuffer(keys.ownInteractionsPrefix(db, owner) + id, after === '-' ? '-' : `(${after}`, '+', 'COUNT', amt + 1);
    return { list: got.slice(0, amt).map((e) => parseEntry(e, id)), more: got.length > amt };
  }

  // The stream of all users' (or sessions') interactions: `scan` entries after `after` at most.
  async all(db: string, owner: Owner, after: string, scan: number): Promise<{ list: StoredInteraction[]; last: string | undefined; more: boolean }> {
    const key = owner === 'user' ? keys.userInteractions(db) : keys.sessionInteractions(db);
    const got = await this.redis.xrangeBuffer(key, after === '-' ? '-' : `(${after}`, '+', 'COUNT', scan + 1);
    const list = got.slice(0, scan).map((e) => parseEntry(e, undefined));
    return { list, last: list.at(-1)?.id, more: got.length > scan };
  }

  // Removes the owner's interactions everywhere; how many there were.
  async forget(db: string, owner: Owner, id: string): Promise<number> {
    return (await this.forgetScript(keys.ownInteractionsPrefix(db, owner) + id, owner === 'user' ? keys.userInteractions(db) : keys.sessionInteractions(db))) as number;
  }
}

function parseLink(v: string): { user: string; timestamp: number } {
  const space = v.indexOf(' ');
  return { timestamp: Number(v.slice(0, space)), user: v.slice(space + 1) };
}

function parseEntry([id, fields]: [Buffer, Buffer[]], owner: string | undefined): StoredInteraction {
  const out: StoredInteraction = { id: id.toString(), owner: owner ?? '', item: '', type: '', timestamp: 0, properties: undefined };
  for (let k = 0; k < fields.length; k += 2) {
    const name = fields[k]!.toString();
    const v = fields[k + 1]!;
    if (name === 'u' || name === 's') out.owner = v.toString();
    else if (name === 'i') out.item = v.toString();
    else if (name === 't') out.type = v.toString();
    else if (name === 'ts') out.timestamp = Number(v.toString());
    else if (name === 'p') out.properties = v;
  }
  return out;
}

function frame(b: InteractionBatch): Buffer {
  const f = new LuaFrame(256 + b.rows.length * 96).array(3).array(b.owners.length);
  for (const o of b.owners) f.string(o);
  f.array(b.items.length);
  for (const i of b.items) f.string(i);
  f.array(b.rows.length * 7);
  for (const r of b.rows) {
    f.uint(r.owner).uint(r.item).string(r.type).string(String(r.timestamp));
    if (r.properties) f.bytes(r.properties);
    else f.string('');
    f.string(String(r.rating)).string(r.replace ? 'r' : 'm');
  }
  return f.done();
}
