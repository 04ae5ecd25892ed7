// A database's scenarios, its default scenario per recommendation type and its A/B test parameters.
// Writes are optimistic: the service validates the whole graph it read at some version, and the
// write lands only if no other change came in between (then the service reads and checks again).
import type { Connection } from './redis.js';
import { defineScript, type Script } from './lua.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface ScenarioRecord {
  name: string;
  reco_type: string;
  scenario: Record<string, unknown>;
}

export interface AbTest {
  name: string;
  probability_a: number;
}

export interface ScenarioSet {
  version: number;
  scenarios: Map<string, ScenarioRecord>; // `<reco_type>/<name>`
  defaults: Map<string, string>; // reco_type -> name
  abTests: Map<string, AbTest>; // id -> parameters
}

// KEYS: scenarios, defaults, version, catalogue change stream. ARGV: expected version, op ('put' |
// 'del' | 'default' | 'undefault'), field, value. The change's id (every process drops the scenarios
// it holds when its tail reaches it); 0 when the version moved on.
const WRITE = `
if tonumber(redis.call('GET', KEYS[3]) or '0') ~= tonumber(ARGV[1]) then return 0 end
if ARGV[2] == 'put' then redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
elseif ARGV[2] == 'del' then redis.call('HDEL', KEYS[1], ARGV[3])
elseif ARGV[2] == 'default' then redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
else redis.call('HDEL', KEYS[2], ARGV[3]) end
redis.call('INCR', KEYS[3])
return redis.call('XADD', KEYS[4], '*', 'kind', 'scenarios', 'op', 'config')
`;

export const scenarioKey = (recoType: string, name: string) => `${recoType}/${name}`;

export class ScenariosStore {
  private readonly writeScript: Script;

  constructor(private readonly redis: Connection) {
    this.writeScript = defineScript(redis, 'recdScenarioWrite', 4, WRITE);
  }

  async read(db: string): Promise<ScenarioSet> {
    const [[, version], [, scenarios], [, defaults], [, abTests]] = (await this.redis
      .multi()
      .get(keys.scenariosVersion(db))
      .hgetallBuffer(keys.scenarios(db))
      .hgetall(keys.scenarioDefaults(db))
      .hgetallBuffer(keys.abTests(db))
      .exec()) as [[null, string | null], [null, Record<string, Buffer>], [null, Record<string, string>], [null, Record<string, Buffer>]];
    return {
      version: Number(version ?? 0),
      scenarios: new Map(Object.entries(scenarios).map(([k, v]) => [k, unpack<ScenarioRecord>(v)!])),
      defaults: new Map(Object.entries(defaults)),
      abTests: new Map(Object.entries(abTests).map(([k, v]) => [k, unpack<AbTest>(v)!])),
    };
  }

  // The change's id; undefined: another change landed since `version` (nothing written).
  async write(
    db: string,
    version: number,
    op: 'put' | 'del' | 'default' | 'undefault',
    field: string,
    value: Buffer | string = '',
  ): Promise<string | undefined> {
    const change = await this.writeScript(
      keys.scenarios(db),
      keys.scenarioDefaults(db),
      keys.scenariosVersion(db),
      keys.catalogueChanges(db),
      version,
      op,
      field,
      value,
    );
    return change === 0 ? undefined : (change as string);
  }

  put(db: string, version: number, record: ScenarioRecord): Promise<string | undefined> {
    return this.write(db, version, 'put', scenarioKey(record.reco_type, record.name), pack(record));
  }

  async putAbTest(db: string, id: string, test: AbTest): Promise<void> {
    await this.redis.hset(keys.abTests(db), id, pack(test));
  }

  async abTest(db: string, id: string): Promise<AbTest | undefined> {
    return unpack<AbTest>(await this.redis.hgetBuffer(keys.abTests(db), id));
  }
}
