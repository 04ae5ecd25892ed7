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
  // Where entity records keep this property's values: `<lower-cased name>#<creation sequence>`, so
  // a property deleted and defined again never sees the values of its predecessor. Derived from the
  // order set's score when read; not part of the stored definition.
  field: string;
}

type Stored = Omit<PropertyDef, 'field'>;

// KEYS: database record, definitions, order, sequence; ARGV: lower-cased name, packed definition.
// -1: no such database; 0: the name is taken; 1: created.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
return 1`;

const withField = (stored: Stored, name: string, seq: string | number): PropertyDef => ({ ...stored, field: `${name}#${seq}` });

export class PropertiesStore {
  constructor(private readonly redis: Redis) {}

  async create(db: string, kind: PropertyKind, def: Stored): Promise<'created' | 'taken' | 'no-database'> {
    const name = def.property_name.toLowerCase();
    const r = (await this.redis.eval(CREATE, 4, keys.database(db), keys.properties(db, kind), keys.propertyOrder(db, kind), keys.propertySeq(db), name, pack(def))) as number;
    return r === 1 ? 'created' : r === 0 ? 'taken' : 'no-database';
  }

  // In creation order; undefined: no such database.
  async list(db: string, kind: PropertyKind): Promise<PropertyDef[] | undefined> {
    const res = await this.redis
      .multi()
      .exists(keys.database(db))
      .hgetallBuffer(keys.properties(db, kind))
      .zrange(keys.propertyOrder(db, kind), '0', '-1', 'WITHSCORES')
      .exec();
    if (!res || res[0]![1] === 0) return undefined;
    const stored = res[1]![1] as Record<string, Buffer>;
    const order = res[2]![1] as string[];
    const out: PropertyDef[] = [];
    for (let i = 0; i < order.length; i += 2) {
      const name = order[i]!;
      if (stored[name] !== undefined) out.push(withField(unpack<Stored>(stored[name])!, name, order[i + 1]!));
    }
    return out;
  }

  async get(db: string, kind: PropertyKind, name: string): Promise<PropertyDef | undefined> {
    const lower = name.toLowerCase();
    const res = await this.redis.multi().hgetBuffer(keys.properties(db, kind), lower).zscore(keys.propertyOrder(db, kind), lower).exec();
    const stored = unpack<Stored>(res?.[0]?.[1] as Buffer | null);
    return stored && withField(stored, lower, res![1]![1] as string);
  }

  async remove(db: string, kind: PropertyKind, name: string): Promise<boolean> {
    const res = await this.redis.multi().hdel(keys.properties(db, kind), name.toLowerCase()).zrem(keys.propertyOrder(db, kind), name.toLowerCase()).exec();
    return res?.[0]?.[1] === 1;
  }
}
