// Item and user property definitions of a database. Writes happen only while the database exists.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';
import { throwIfOverQuota } from './quota-reply.js';
import { UNLIMITED, type Quotas } from '../config/quotas.js';

export type PropertyKind = 'item' | 'user';

export interface PropertyDef {
  property_name: string; // as created; identity is the lower-cased name
  value_type: string;
  repeated: boolean;
  metadata?: unknown; // item properties only
  // Where entity records keep this property's values: its creation sequence in the database, so a
  // property deleted and defined again never sees the values of its predecessor. Derived from the
  // order set's score when read; not part of the stored definition.
  seq: number;
}

type Stored = Omit<PropertyDef, 'seq'>;

// KEYS: database record, definitions, order, sequence, change stream; ARGV: lower-cased name,
// packed definition, kind, the quota of definitions. -1: no such database; 0: the name is taken; a
// quota answer (lua.ts overQuota); else the change's id.
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local held = redis.call('HLEN', KEYS[2])
if held + 1 > tonumber(ARGV[4]) then return {-3, 'properties', tonumber(ARGV[4]), held} end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
return redis.call('XADD', KEYS[5], '*', 'kind', ARGV[3], 'op', 'defs')`;

// KEYS: definitions, order, change stream; ARGV: lower-cased name, kind. The change's id, or 0.
const REMOVE = `if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('XADD', KEYS[3], '*', 'kind', ARGV[2], 'op', 'defs')`;

const withSeq = (stored: Stored, seq: string | number): PropertyDef => ({ ...stored, seq: Number(seq) });

export class PropertiesStore {
  constructor(
    private readonly redis: Connection,
    private readonly quotas: Quotas = UNLIMITED,
  ) {}

  // Definition changes go to the catalogue change stream, which every process's Catalogue tails.
  async create(db: string, kind: PropertyKind, def: Stored): Promise<{ change: string } | 'taken' | 'no-database'> {
    const name = def.property_name.toLowerCase();
    const r = (await this.redis.eval(
      CREATE,
      5,
      keys.database(db),
      keys.properties(db, kind),
      keys.propertyOrder(db, kind),
      keys.propertySeq(db),
      keys.catalogueChanges(db),
      name,
      pack(def),
      kind,
      String(this.quotas.properties),
    )) as number | string;
    throwIfOverQuota(r);
    return r === 0 ? 'taken' : r === -1 ? 'no-database' : { change: r as string };
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
      if (stored[name] !== undefined) out.push(withSeq(unpack<Stored>(stored[name])!, order[i + 1]!));
    }
    return out;
  }

  async get(db: string, kind: PropertyKind, name: string): Promise<PropertyDef | undefined> {
    const lower = name.toLowerCase();
    const res = await this.redis.multi().hgetBuffer(keys.properties(db, kind), lower).zscore(keys.propertyOrder(db, kind), lower).exec();
    const stored = unpack<Stored>(res?.[0]?.[1] as Buffer | null);
    return stored && withSeq(stored, res![1]![1] as string);
  }

  // The change's id; undefined when there was no such property.
  async remove(db: string, kind: PropertyKind, name: string): Promise<string | undefined> {
    const r = (await this.redis.eval(
      REMOVE,
      3,
      keys.properties(db, kind),
      keys.propertyOrder(db, kind),
      keys.catalogueChanges(db),
      name.toLowerCase(),
      kind,
    )) as number | string;
    return r === 0 ? undefined : (r as string);
  }
}
