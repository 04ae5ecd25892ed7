// Precomputed recommendation tables: definitions, built rows as one blob each, and the
// announcement that a table changed.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export type TableKind = 'item_to_items' | 'profile_to_items';

export interface TableDef {
  name: string;
  reco_type: TableKind;
  amt: number;
  created: number; // seconds
  built: { model_id: string; built_at: number; rows: number } | null;
}

export class TablesStore {
  constructor(private readonly redis: Connection) {}

  async define(db: string, def: TableDef): Promise<void> {
    await this.redis.hset(keys.tables(db), def.name, pack(def));
  }

  async get(db: string, name: string): Promise<TableDef | undefined> {
    return unpack<TableDef>(await this.redis.hgetBuffer(keys.tables(db), name));
  }

  async list(db: string): Promise<TableDef[]> {
    const all = await this.redis.hgetallBuffer(keys.tables(db));
    return Object.values(all)
      .map((b) => unpack<TableDef>(b)!)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async remove(db: string, name: string): Promise<boolean> {
    const [[, n]] = (await this.redis.multi().hdel(keys.tables(db), name).unlink(keys.tableBlob(db, name)).exec()) as [
      [unknown, number],
      unknown,
    ];
    await this.redis.publish(keys.tablesChannel(), `${db} ${name}`);
    return n === 1;
  }

  // Stores built rows unless the definition changed or went meanwhile (false then).
  async store(db: string, def: TableDef, rows: Uint8Array): Promise<boolean> {
    const now = await this.get(db, def.name);
    if (!now || now.created !== def.created || now.reco_type !== def.reco_type || now.amt !== def.amt) return false;
    await this.redis
      .multi()
      .set(keys.tableBlob(db, def.name), Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength))
      .hset(keys.tables(db), def.name, pack(def))
      .exec();
    await this.redis.publish(keys.tablesChannel(), `${db} ${def.name}`);
    return true;
  }

  async rows(db: string, name: string): Promise<Buffer | undefined> {
    return (await this.redis.getBuffer(keys.tableBlob(db, name))) ?? undefined;
  }
}
