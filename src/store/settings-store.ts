// Database settings (today the interaction rules): one msgpack value per setting. A change is also
// a `config` entry on the catalogue change stream, so every process drops what it held.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export type SettingName = 'interaction-rules';

const KEY: Record<SettingName, (db: string) => string> = { 'interaction-rules': keys.interactionRules };

// KEYS: database, setting, change stream. ARGV: packed value, setting name. The change's id; 0 without the database.
const REPLACE = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
return redis.call('XADD', KEYS[3], '*', 'kind', ARGV[2], 'op', 'config')`;

export class SettingsStore {
  constructor(private readonly redis: Connection) {}

  // undefined: no such database; null: the database has not set it.
  async get<T>(db: string, name: SettingName): Promise<T | null | undefined> {
    const [exists, blob] = await Promise.all([this.redis.exists(keys.database(db)), this.redis.getBuffer(KEY[name](db))]);
    if (!exists) return undefined;
    return unpack<T>(blob) ?? null;
  }

  // The change's id; undefined without the database (nothing written then).
  async replace(db: string, name: SettingName, value: unknown): Promise<string | undefined> {
    const change = await this.redis.eval(REPLACE, 3, keys.database(db), KEY[name](db), keys.catalogueChanges(db), pack(value), name);
    return change === 0 ? undefined : (change as string);
  }
}
