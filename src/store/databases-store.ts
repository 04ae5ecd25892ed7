// Database records and the per-organisation database indexes.
import type { Connection } from './redis.js';
import { unlinkDatabase } from './database-keys.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface Database {
  id: string;
  org: string;
  name: string;
  description: string;
  item_id_type: string;
  user_id_type: string;
  session_id_type: string;
  status: 'pending' | 'ready';
  metadata: Record<string, unknown>;
  created: number;
}

// KEYS: the organisation's databases, its names; ARGV: the database id, its lower-cased name.
const DROP_LISTING = `
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[2]) end
return 1`;

export class DatabasesStore {
  constructor(private readonly redis: Connection) {}

  // Claims the name within the organisation; false when another database holds it.
  async claimName(org: string, name: string, id: string): Promise<boolean> {
    return (await this.redis.hsetnx(keys.orgDatabaseNames(org), name.toLowerCase(), id)) === 1;
  }

  async releaseName(org: string, name: string): Promise<void> {
    await this.redis.hdel(keys.orgDatabaseNames(org), name.toLowerCase());
  }

  async idByName(org: string, name: string): Promise<string | undefined> {
    return (await this.redis.hget(keys.orgDatabaseNames(org), name.toLowerCase())) ?? undefined;
  }

  // Writes only over an existing record, so an update racing a deletion cannot bring it back.
  async update(db: Database): Promise<boolean> {
    return (await this.redis.set(keys.database(db.id), pack(db), 'XX')) === 'OK';
  }

  async create(db: Database): Promise<void> {
    await this.redis.set(keys.database(db.id), pack(db));
    const seq = await this.redis.incr(keys.orgDatabaseSeq(db.org));
    await this.redis.zadd(keys.orgDatabases(db.org), seq, db.id);
  }

  async get(id: string): Promise<Database | undefined> {
    return unpack<Database>(await this.redis.getBuffer(keys.database(id)));
  }

  // One page (1-based) in creation order, and whether another page follows.
  async page(org: string, page: number, amt: number): Promise<{ databases: Database[]; hasNext: boolean }> {
    const start = (page - 1) * amt;
    const ids = await this.redis.zrange(keys.orgDatabases(org), String(start), String(start + amt));
    const hasNext = ids.length > amt;
    const wanted = ids.slice(0, amt);
    if (wanted.length === 0) return { databases: [], hasNext: false };
    // A GET each, not one MGET: the records are in different slots of a cluster.
    const blobs = await Promise.all(wanted.map((id) => this.redis.getBuffer(keys.database(id))));
    return { databases: blobs.map((b) => unpack<Database>(b)).filter((d): d is Database => d !== undefined), hasNext };
  }

  // Drops the record first (the database is gone for readers at once, and the write scripts, which
  // check it, add no key), then every other key of it, listed from its records (database-keys.ts).
  // taskNames: the names its task records may be filed under. The delete is registered before anything
  // goes: if it is cut short (Redis away), finishDeletes sees it through later.
  async remove(db: Database, taskNames: readonly string[]): Promise<void> {
    await this.redis.zadd(keys.databasesDeleting(), Date.now(), db.id);
    await this.finish(db, db.id, taskNames);
  }

  // Sees through the deletes started before `startedBefore` (ms) and not finished: what a process that
  // died or lost Redis mid-delete left. Another process may be finishing one at the same time: every
  // step is harmless twice. Returns the ids finished.
  async finishDeletes(taskNames: readonly string[], startedBefore: number, limit = 10): Promise<string[]> {
    const ids = await this.redis.zrangebyscore(keys.databasesDeleting(), '-inf', startedBefore, 'LIMIT', 0, limit);
    for (const id of ids) await this.finish(await this.get(id), id, taskNames);
    return ids;
  }

  // db: the record, while it is still there.
  private async finish(db: Database | undefined, id: string, taskNames: readonly string[]): Promise<void> {
    if (db) {
      // The name only if it is still this database's: once the listing lost it, another may claim it.
      await this.redis.eval(DROP_LISTING, 2, keys.orgDatabases(db.org), keys.orgDatabaseNames(db.org), id, db.name.toLowerCase());
      await this.redis.del(keys.database(id));
    }
    await unlinkDatabase(this.redis, id, taskNames);
    await this.redis.zrem(keys.databasesDeleting(), id);
    // Processes holding state about the database drop it.
    await this.redis.publish(keys.droppedDatabasesChannel(), id);
  }
}
