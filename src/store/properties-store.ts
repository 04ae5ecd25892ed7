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
  created: number;
}

// KEYS[1] database record, KEYS[2] definitions; ARGV[1] field, ARGV[2] value.
// -1: no such database; 0: the name is taken; 1: created.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])`;

export class PropertiesStore {
  constructor(private readonly redis: Redis) {}

  async create(db: string, kind: PropertyKind, def: PropertyDef): Promise<'created' | 'taken' | 'no-database'> {
    const r = (await this.redis.eval(CREATE, 2, keys.database(db), keys.properties(db, kind), def.property_name.toLowerCase(), pack(def))) as number;
    return r === 1 ? 'created' : r === 0 ? 'taken' : 'no-database';
  }

  // undefined: no such database.
  async list(db: string, kind: PropertyKind): Promise<PropertyDef[] | undefined> {
    const res = await this.redis.multi().exists(keys.database(db)).hgetallBuffer(keys.properties(db, kind)).exec();
    if (!res || res[0]![1] === 0) return undefined;
    return Object.values(res[1]![1] as Record<string, Buffer>)
      .map((b) => unpack<PropertyDef>(b)!)
      .sort((a, b) => a.created - b.created);
  }

  async get(db: string, kind: PropertyKind, name: string): Promise<PropertyDef | undefined> {
    return unpack<PropertyDef>(await this.redis.hgetBuffer(keys.properties(db, kind), name.toLowerCase()));
  }

  async remove(db: string, kind: PropertyKind, name: string): Promise<boolean> {
    return (await this.redis.hdel(keys.properties(db, kind), name.toLowerCase())) === 1;
  }
}
