// Item and user property definitions of a database. Writes happen only while the database exists.
import type { Redis } from 'ioredis';
import { keys } from './keys.js';
import { pack, unpack } from './records.js';

export type PropertyKind = 'item' | 'user';

export interface PropertyDef {
  property_name: string; // as created; identity is the lower-cased name
  value_type: string;
  repeated: boolean;
  metadata?: unknown; // item properties only
}

// KEYS: database record, definitions, order, sequence; ARGV: field, value.
// -1: no such database; 0: the name is taken; 1: created.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
return 1`;

export class PropertiesStore {
  constructor(private readonly redis: Redis) {}

  async create(db: string, kind: PropertyKind, def: PropertyDef): Promise<'created' | 'taken' | 'no-database'> {
    const r = (await this.redis.eval(
      CREATE,
      4,
      keys.database(db),
      keys.properties(db, kind),
      keys.propertyOrder(db, kind),
      keys.propertySeq(db),
      def.property_name.toLowerCase(),
      pack(def),
    )) as number;
    return r === 1 ? 'created' : r === 0 ? 'taken' : 'no-database';
  }

  // In creation order; undefined: no such database.
  async list(db: string, kind: PropertyKind): Promise<PropertyDef[] | undefined> {
    const res = await this.redis.multi().exists(keys.database(db)).hgetallBuffer(keys.properties(db, kind)).zrange(keys.propertyOrder(db, kind), '0', '-1').exec();
    if (!res || res[0]![1] === 0) return undefined;
    const defs = res[1]![1] as Record<string, Buffer>;
    return (res[2]![1] as string[]).filter((f) => defs[f] !== undefined).map((f) => unpack<PropertyDef>(defs[f])!);
  }

  async get(db: string, kind: PropertyKind, name: string): Promise<PropertyDef | undefined> {
    return unpack<PropertyDef>(await this.redis.hgetBuffer(keys.properties(db, kind), name.toLowerCase()));
  }

  async remove(db: string, kind: PropertyKind, name: string): Promise<boolean> {
    const res = await this.redis.multi().hdel(keys.properties(db, kind), name.toLowerCase()).zrem(keys.propertyOrder(db, kind), name.toLowerCase()).exec();
    return res?.[0]?.[1] === 1;
  }
}
