// What recommendations showed and what came of it (services/outcomes/): batches of answers kept by age
// and count, each viewer's items shown within the attribution window, and per-day counters of answers,
// items shown and credited interactions by group (layouts in outcomes-scripts.ts).
import { keys } from './keys.js';
import { defineScript, LUA_HELPERS, type Script } from './lua.js';
import { ATTRIBUTE, RECORD } from './outcomes-scripts.js';
import type { Connection } from './redis.js';

export interface OutcomeLimits {
  keepMs: number; // impressions kept this long
  most: number; // answers kept per database at most (also viewers with shown items)
  windowMs: number; // view-through attribution window
  countersMs: number; // day counters kept this long after their day
}

// A credit given: the answer's group, direct (d) or view-through (v), the interaction type.
export interface Credit {
  group: string;
  kind: 'd' | 'v';
  type: string;
}

export class OutcomesStore {
  private readonly recordScript: Script;
  private readonly attributeScript: Script;

  constructor(private readonly redis: Connection) {
    this.recordScript = defineScript(redis, 'recdImpressionsRecord', 6, LUA_HELPERS + RECORD);
    this.attributeScript = defineScript(redis, 'recdOutcomesAttribute', 3, ATTRIBUTE);
  }

  // Stores one batch of n answers and what they count (outcomes-scripts.ts RECORD); false when the
  // database is gone.
  async record(db: string, name: string, batch: Buffer, n: number, work: Buffer, now: number, l: OutcomeLimits): Promise<boolean> {
    const held = await this.recordScript(
      keys.database(db),
      keys.impressionBatches(db),
      keys.impressionOrder(db),
      keys.impressionCount(db),
      keys.shownViewers(db),
      keys.outcomeKeys(db),
      name,
      batch,
      n,
      now,
      l.keepMs,
      l.most,
      l.windowMs,
      keys.shownPrefix(db),
      keys.outcomesPrefix(db),
      keys.impressionCreditsPrefix(db),
      l.countersMs,
      work,
    );
    return Number(held) >= 0;
  }

  // Credits interactions (a LuaFrame as outcomes-scripts.ts ATTRIBUTE reads) to the answers they follow.
  async attribute(db: string, rows: Buffer, l: OutcomeLimits): Promise<Credit[]> {
    const flat = (await this.attributeScript(
      keys.database(db),
      keys.impressionBatches(db),
      keys.outcomeKeys(db),
      rows,
      l.windowMs,
      keys.shownPrefix(db),
      keys.outcomesPrefix(db),
      keys.impressionCreditsPrefix(db),
      l.countersMs,
    )) as string[];
    const out: Credit[] = [];
    for (let k = 0; k + 2 < flat.length; k += 3) out.push({ group: flat[k]!, kind: flat[k + 1] as 'd' | 'v', type: flat[k + 2]! });
    return out;
  }

  // The counters of days first..last (UTC day numbers), each a map of field -> count.
  async days(db: string, first: number, last: number): Promise<Map<number, Map<string, number>>> {
    const p = this.redis.pipeline();
    for (let d = first; d <= last; d++) p.hgetall(`${keys.outcomesPrefix(db)}${d}`);
    const replies = (await p.exec()) ?? [];
    const out = new Map<number, Map<string, number>>();
    replies.forEach(([err, fields], k) => {
      if (err) throw err;
      const entries = Object.entries(fields as Record<string, string>);
      if (entries.length > 0) out.set(first + k, new Map(entries.map(([f, n]) => [f, Number(n)])));
    });
    return out;
  }

  // Distinct viewers over the union of HyperLogLogs, one count per list of (day, name) pairs.
  async distinct(db: string, lists: [number, string][][]): Promise<number[]> {
    if (lists.length === 0) return [];
    const p = this.redis.pipeline();
    for (const list of lists) {
      if (list.length === 0) p.echo('0');
      else p.pfcount(...list.map(([day, name]) => `${keys.outcomesPrefix(db)}${day}:${name}`));
    }
    const replies = (await p.exec()) ?? [];
    return replies.map(([err, n]) => {
      if (err) throw err;
      return Number(n);
    });
  }

  // The items shown to a viewer (u:<user id> or s:<session id>) in [since, before) (ms), from their
  // latest answers (outcomes-scripts.ts SHOWN).
  async shownBetween(db: string, viewer: string, since: number, before: number): Promise<string[]> {
    const out = new Set<string>();
    for (const entry of await this.redis.lrange(keys.shownPrefix(db) + viewer, 0, -1)) {
      const [, t, , , items] = entry.split('\u001d', 5);
      const at = Number(t);
      if (at >= since && at < before && items !== undefined) for (const item of items.split('\u001e')) if (item !== '') out.add(item);
    }
    return [...out];
  }

  // A page of the batches stored in [from, to) (ms), oldest first: each its name and its answers (a
  // LuaFrame), skipping `offset`.
  async batchesBetween(db: string, from: number, to: number, offset: number, count: number): Promise<[string, Buffer][]> {
    const members = await this.redis.zrangebyscore(keys.impressionOrder(db), from, `(${to}`, 'LIMIT', offset, count);
    if (members.length === 0) return [];
    const names = members.map((m) => m.slice(0, m.indexOf(' ')));
    const blobs = await this.redis.hmgetBuffer(keys.impressionBatches(db), ...names);
    return names.flatMap((name, k) => (blobs[k] ? [[name, blobs[k]!] as [string, Buffer]] : []));
  }

  async putReplay(db: string, task: string, result: Buffer, ttlSeconds: number): Promise<void> {
    await this.redis.set(keys.replayResult(db, task), result, 'EX', ttlSeconds);
  }

  replayOf(db: string, task: string): Promise<Buffer | null> {
    return this.redis.getBuffer(keys.replayResult(db, task));
  }

  // The stored answers of one batch (a LuaFrame), or undefined once trimmed.
  batch(db: string, name: string): Promise<Buffer | null> {
    return this.redis.hgetBuffer(keys.impressionBatches(db), name);
  }

  // How many answers the database's impressions hold.
  async held(db: string): Promise<number> {
    return Number((await this.redis.get(keys.impressionCount(db))) ?? 0);
  }
}
