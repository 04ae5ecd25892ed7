// Interactions of users and anonymous sessions, their resolution to users, and the inferred ratings
// they make. Each request is one Lua call, so it is applied entirely or not at all.
//
// Storage: the rows of a request are stored as chunks of at most CHUNK_ROWS rows, each one field of
// a hash (per owner kind) under a sequence number, in the order they arrive; each user or session
// keeps a list of references ("<chunk> <row>") to its rows. So an interaction costs Redis one list
// entry and its share of one hash write (rather than entries in two streams), and is stored once.
// A chunk is a LuaFrame [owners, items, rows: owner position, item position, type, timestamp,
// properties or '', rating, 'r' or 'm'] with positions into its own lists. Forgetting an owner
// blanks its rows in place (type ''), so the references of other rows stay valid.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';
import { defineScript, LUA_HELPERS, LuaFrame, readLuaFrame, type LuaValue, type Script } from './lua.js';
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
  owner: string; // user or session id
  item: string;
  type: string;
  timestamp: number;
  properties: Buffer | undefined;
}

// Rows per stored chunk: a listing reads whole chunks, so they stay small.
const CHUNK_ROWS = 256;
const ROW_FIELDS = 7;

// Lua: a chunk's rows, by position (0-based), from chunks read at most once per script.
const CHUNKS = `
local chunkCache = {}
local function chunkOf(batchesKey, seq)
  local c = chunkCache[seq]
  if c == nil then
    local blob = redis.call('HGET', batchesKey, seq)
    c = blob and cmsgpack.unpack(blob) or false
    chunkCache[seq] = c
  end
  return c
end
`;

// Lua: inferred ratings, in a user's ratings (ratings-store.ts): the hash of inferred ones. An item in
// the set but not in that hash has an explicit rating, which is never changed; "max" keeps the higher
// of the old and new inferred rating. Each costs a field or two, whatever the user holds. Log records
// as in ratings-store.ts, op 'infer', one per row written.
const INFER = `
local inferred = {added = 0, us = {}, is = {}, upos = {}, ipos = {}, recs = {}}
local function infer(prefix, uidx, iidx, rating, replace, ts)
  local ik = prefix .. uidx .. ':i'
  local held = redis.call('HGET', ik, iidx)
  if held then
    local _, was = struct.unpack('>Bd', held)
    if not replace and was > rating then rating = was end
  elseif redis.call('SADD', prefix .. uidx .. ':s', iidx) == 0 then
    return
  else
    inferred.added = inferred.added + 1
  end
  redis.call('HSET', ik, iidx, struct.pack('>Bdd', 2, rating, ts))
  if not inferred.upos[uidx] then inferred.us[#inferred.us + 1] = uidx; inferred.upos[uidx] = #inferred.us - 1 end
  if not inferred.ipos[iidx] then inferred.is[#inferred.is + 1] = iidx; inferred.ipos[iidx] = #inferred.is - 1 end
  inferred.recs[#inferred.recs + 1] = struct.pack('>IIdd', inferred.upos[uidx], inferred.ipos[iidx], rating, ts)
end
local function flushInferred(countKey, nextKey, logKey)
  if #inferred.recs > 0 then
    redis.call('XADD', logKey, '*', 'op', 'infer', 'u', table.concat(inferred.us, ','), 'i', table.concat(inferred.is, ','), 'r', table.concat(inferred.recs))
  end
  return counted(countKey, nextKey, tonumber(redis.call('GET', countKey) or '0'), inferred.added)
end
`;

// KEYS: database, users index/counter/ids, items index/counter/ids, ratings count, ratings log,
// chunks of all (users or sessions), resolved sessions, next threshold, chunk sequence.
// ARGV: 'user' or 'session', user ratings prefix, references prefix, [owners, items] (distinct ids of
// the whole request), then its chunks.
// Returns {threshold reached (0: none), sessions of the request already resolved...}; {-1} without the database.
const ADD = `${LUA_HELPERS}${INFER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local kind, ratingsPrefix, refsPrefix = ARGV[1], ARGV[2], ARGV[3]
local ids = cmsgpack.unpack(ARGV[4])
local owners, items = ids[1], ids[2]
local itemIdx, ownerIdx, resolved = {}, {}, {}
local iidx = resolve(KEYS[5], KEYS[6], KEYS[7], items)
for k = 1, #items do itemIdx[items[k]] = iidx[k] end
if kind == 'user' then
  local uidx = resolve(KEYS[2], KEYS[3], KEYS[4], owners)
  for k = 1, #owners do ownerIdx[owners[k]] = uidx[k] end
else
  local links = hmget(KEYS[11], owners)
  for o = 1, #owners do
    if links[o] then
      resolved[#resolved + 1] = owners[o]
      local user = string.sub(links[o], string.find(links[o], ' ') + 1)
      ownerIdx[owners[o]] = resolve(KEYS[2], KEYS[3], KEYS[4], {user})[1]
    end
  end
end
local refs, order = {}, {}
for c = 5, #ARGV do
  local seq = redis.call('INCR', KEYS[13])
  redis.call('HSET', KEYS[10], seq, ARGV[c])
  local chunk = cmsgpack.unpack(ARGV[c])
  local cOwners, cItems, rows = chunk[1], chunk[2], chunk[3]
  for r = 1, #rows, ${ROW_FIELDS} do
    local owner = cOwners[rows[r] + 1]
    local list = refs[owner]
    if not list then list = {}; refs[owner] = list; order[#order + 1] = owner end
    list[#list + 1] = seq .. ' ' .. math.floor((r - 1) / ${ROW_FIELDS})
    local u = ownerIdx[owner]
    if u then infer(ratingsPrefix, u, itemIdx[cItems[rows[r + 1] + 1]], tonumber(rows[r + 5]), rows[r + 6] == 'r', tonumber(rows[r + 3])) end
  end
end
for k = 1, #order do
  local list = refs[order[k]]
  for s = 1, #list, SLICE do redis.call('RPUSH', refsPrefix .. order[k], unpack(list, s, math.min(s + SLICE - 1, #list))) end
end
local out = {flushInferred(KEYS[8], KEYS[12], KEYS[9])}
for k = 1, #resolved do out[#out + 1] = resolved[k] end
return out
`;

// KEYS: database, resolved, order, sequence, the user's sessions set, users index/counter/ids,
// items index, ratings count, ratings log, the session's references, next threshold, session chunks.
// ARGV: session id, user id, timestamp, user ratings prefix, rules [type, rating, 'r' or 'm', ...].
// The session's interactions so far become the user's inferred ratings.
// Returns {1, threshold reached (0: none)}; {0} when already resolved; {-1} without the database.
const RESOLVE = `${LUA_HELPERS}${INFER}${CHUNKS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ' ' .. ARGV[2])
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('SADD', KEYS[5], ARGV[1])
local u = resolve(KEYS[6], KEYS[7], KEYS[8], {ARGV[2]})[1]
local rules = cmsgpack.unpack(ARGV[5])
local rule = {}
for k = 1, #rules, 3 do rule[rules[k]] = {tonumber(rules[k + 1]), rules[k + 2] == 'r'} end
for _, ref in ipairs(redis.call('LRANGE', KEYS[12], 0, -1)) do
  local space = string.find(ref, ' ')
  local chunk = chunkOf(KEYS[14], string.sub(ref, 1, space - 1))
  if chunk then
    local at = tonumber(string.sub(ref, space + 1)) * ${ROW_FIELDS} + 1
    local rows = chunk[3]
    local r = rule[string.lower(rows[at + 2])]
    local i = redis.call('HGET', KEYS[9], chunk[2][rows[at + 1] + 1])
    if r and i then infer(ARGV[4], u, i, r[1], r[2], tonumber(rows[at + 3])) end
  end
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

// KEYS: the owner's references, the chunks of all. Blanks the owner's rows in their chunks (a chunk
// left with none is removed) and drops its references. Returns how many rows were blanked.
const FORGET = `${CHUNKS}
local refs = redis.call('LRANGE', KEYS[1], 0, -1)
local touched, order = {}, {}
for _, ref in ipairs(refs) do
  local space = string.find(ref, ' ')
  local seq = string.sub(ref, 1, space - 1)
  local chunk = chunkOf(KEYS[2], seq)
  if chunk then
    local at = tonumber(string.sub(ref, space + 1)) * ${ROW_FIELDS} + 1
    local rows = chunk[3]
    chunk[1][rows[at] + 1] = ''
    for f = 2, ${ROW_FIELDS} - 1 do rows[at + f] = '' end
    rows[at + 3] = '0'
    if not touched[seq] then touched[seq] = true; order[#order + 1] = seq end
  end
end
for _, seq in ipairs(order) do
  local chunk = chunkCache[seq]
  local live = false
  for r = 1, #chunk[3], ${ROW_FIELDS} do if chunk[3][r + 2] ~= '' then live = true; break end end
  if live then redis.call('HSET', KEYS[2], seq, cmsgpack.pack(chunk)) else redis.call('HDEL', KEYS[2], seq) end
end
redis.call('DEL', KEYS[1])
return #refs
`;

export type AddResult = { kind: 'added'; count: CountChange; resolved: string[] } | { kind: 'no-database' };

export class InteractionsStore {
  private readonly addScript: Script;
  private readonly resolveScript: Script;
  private readonly forgetScript: Script;
  private readonly unlinkScript: Script;

  constructor(private readonly redis: Redis) {
    this.addScript = defineScript(redis, 'recdInteractionsAdd', 13, ADD);
    this.resolveScript = defineScript(redis, 'recdSessionResolve', 14, RESOLVE);
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
      keys.interactionChunks(db, owner),
      keys.resolvedSessions(db),
      keys.ratingsNextThreshold(db),
      keys.interactionChunkSeq(db, owner),
      owner,
      keys.userRatingsPrefix(db),
      keys.interactionRefsPrefix(db, owner),
      idsFrame(batch),
      ...chunks(batch),
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
      keys.interactionRefsPrefix(db, 'session') + session,
      keys.ratingsNextThreshold(db),
      keys.interactionChunks(db, 'session'),
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

  // One user's or session's interactions from position `from` of its list, `amt` at most.
  async own(db: string, owner: Owner, id: string, from: number, amt: number): Promise<{ list: StoredInteraction[]; more: boolean }> {
    const refs = await this.redis.lrange(keys.interactionRefsPrefix(db, owner) + id, from, from + amt);
    const wanted = refs.slice(0, amt).map(parseRef);
    const chunks = await this.chunks(db, owner, [...new Set(wanted.map(([seq]) => seq))]);
    const list: StoredInteraction[] = [];
    for (const [seq, row] of wanted) {
      const got = chunks.get(seq) && rowOf(chunks.get(seq)!, row);
      if (got) list.push(got);
    }
    return { list, more: refs.length > amt };
  }

  // Every user's (or session's) interactions in the order received, from chunk `seq`, row `row` on:
  // `scan` rows at most (forgotten rows are passed over but count). Each comes with its position;
  // `next` is where the next call goes on from.
  async all(db: string, owner: Owner, seq: number, row: number, scan: number): Promise<{ list: (StoredInteraction & { at: [number, number] })[]; scanned: number; next: [number, number]; more: boolean }> {
    const last = Number((await this.redis.get(keys.interactionChunkSeq(db, owner))) ?? 0);
    const list: (StoredInteraction & { at: [number, number] })[] = [];
    let scanned = 0;
    while (scanned < scan && seq <= last) {
      // Enough chunks for the rows wanted (a chunk holds at most CHUNK_ROWS); removed ones are skipped.
      const seqs = Array.from({ length: Math.min(last - seq + 1, Math.ceil((scan - scanned) / CHUNK_ROWS)) }, (_, k) => seq + k);
      const chunks = await this.chunks(db, owner, seqs);
      for (const s of seqs) {
        const chunk = chunks.get(s);
        const rows = chunk ? rowCount(chunk) : 0;
        while (row < rows && scanned < scan) {
          const got = rowOf(chunk!, row);
          if (got) list.push({ ...got, at: [s, row] });
          row++;
          scanned++;
        }
        if (row < rows) return { list, scanned, next: [s, row], more: true };
        seq = s + 1;
        row = 0;
      }
    }
    return { list, scanned, next: [seq, row], more: seq <= last };
  }

  // Removes the owner's interactions everywhere; how many there were.
  async forget(db: string, owner: Owner, id: string): Promise<number> {
    return (await this.forgetScript(keys.interactionRefsPrefix(db, owner) + id, keys.interactionChunks(db, owner))) as number;
  }

  private async chunks(db: string, owner: Owner, seqs: number[]): Promise<Map<number, LuaValue[]>> {
    const out = new Map<number, LuaValue[]>();
    if (seqs.length === 0) return out;
    const blobs = await this.redis.hmgetBuffer(keys.interactionChunks(db, owner), ...seqs.map(String));
    seqs.forEach((seq, k) => {
      const blob = blobs[k];
      if (blob) out.set(seq, readLuaFrame(blob) as LuaValue[]);
    });
    return out;
  }
}

function parseLink(v: string): { user: string; timestamp: number } {
  const space = v.indexOf(' ');
  return { timestamp: Number(v.slice(0, space)), user: v.slice(space + 1) };
}

// "<chunk> <row>"
function parseRef(ref: string): [number, number] {
  const space = ref.indexOf(' ');
  return [Number(ref.slice(0, space)), Number(ref.slice(space + 1))];
}

const rowCount = (chunk: LuaValue[]) => (chunk[2] as LuaValue[]).length / ROW_FIELDS;
const text = (v: LuaValue) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString() : String(v));

// Row `row` of a chunk; undefined when it was forgotten.
function rowOf(chunk: LuaValue[], row: number): StoredInteraction | undefined {
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
function idsFrame(b: InteractionBatch): Buffer {
  const f = new LuaFrame(64 + (b.owners.length + b.items.length) * 48).array(2).array(b.owners.length);
  for (const o of b.owners) f.string(o);
  f.array(b.items.length);
  for (const i of b.items) f.string(i);
  return f.done();
}

// The rows as stored: chunks of CHUNK_ROWS rows, each with its own owner and item lists.
function chunks(b: InteractionBatch): Buffer[] {
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
