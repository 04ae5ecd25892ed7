// A database's sizes (GET databases/current/counts/), read from what the stores keep as they write:
// the catalogue's record hashes, the rating count and the interaction counts (keys.ts). One MULTI of
// O(1) commands, so the numbers are of one moment and cost the same for any database size.
import type { Connection } from './redis.js';
import { keys } from './keys.js';

export interface DatabaseCounts {
  items: number; // items with a record (as the items listing shows them)
  users: number; // users with a record
  ratings: number; // (user, item) pairs rated, explicitly or inferred from interactions
  interactions: number; // interactions stored, of users and of sessions
  sessions: number; // sessions holding at least one interaction
}

export class CountsStore {
  constructor(private readonly redis: Connection) {}

  usage(db: string): Promise<QuotaCounts> {
    return quotaCounts(this.redis, db);
  }

  async of(db: string): Promise<DatabaseCounts> {
    const res = await this.redis
      .multi()
      .hlen(keys.entityRecords(db, 'item'))
      .hlen(keys.entityRecords(db, 'user'))
      .get(keys.ratingsCount(db))
      .hmget(keys.interactionCounts(db), 'rows:user', 'rows:session', 'owners:session')
      .exec();
    if (!res) throw new Error('counts: the transaction was discarded');
    for (const [err] of res) if (err) throw err;
    const [items, users, ratings, [userRows, sessionRows, sessions]] = res.map(([, v]) => v) as [
      number,
      number,
      string | null,
      (string | null)[],
    ];
    // The interaction counts began with this key: a database holding interactions from before it counts
    // fewer, and forgetting such a user's interactions may take the count below zero; never shown so.
    const count = (v: string | null | undefined) => Math.max(0, Number(v ?? 0));
    return { items, users, ratings: count(ratings), interactions: count(userRows) + count(sessionRows), sessions: count(sessions) };
  }
}

// What the quotas count (config/quotas.ts): entities known (their dense indices handed out), ratings,
// interactions and property definitions; O(1) commands in one MULTI, as above.
export interface QuotaCounts {
  items: number;
  users: number;
  ratings: number;
  interactions: number;
  itemProperties: number;
  userProperties: number;
}

export async function quotaCounts(redis: Connection, db: string): Promise<QuotaCounts> {
  const res = await redis
    .multi()
    .get(keys.entityNext(db, 'item'))
    .get(keys.entityNext(db, 'user'))
    .get(keys.ratingsCount(db))
    .hmget(keys.interactionCounts(db), 'rows:user', 'rows:session')
    .hlen(keys.properties(db, 'item'))
    .hlen(keys.properties(db, 'user'))
    .exec();
  if (!res) throw new Error('quota counts: the transaction was discarded');
  for (const [err] of res) if (err) throw err;
  const [items, users, ratings, [userRows, sessionRows], itemProperties, userProperties] = res.map(([, v]) => v) as [
    string | null,
    string | null,
    string | null,
    (string | null)[],
    number,
    number,
  ];
  const count = (v: string | null | undefined) => Math.max(0, Number(v ?? 0));
  return {
    items: count(items),
    users: count(users),
    ratings: count(ratings),
    interactions: count(userRows) + count(sessionRows),
    itemProperties,
    userProperties,
  };
}
