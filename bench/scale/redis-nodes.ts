// The Redis a scale run measures (redisNodes): one server, or every node of a cluster. Memory and CPU
// summed over the primaries, and the primary holding one database (its keys share the hash tag
// `{db:<id>}`: one slot, one primary); the keys of that primary by kind, weighed with MEMORY USAGE.
import { Redis } from 'ioredis';
import { redisCpuSeconds, redisMemory } from '../lib/private-redis.js';
import { fmtInt } from '../lib/report.js';

// Keys of a kind past the first WEIGH_ALL are weighed one in SAMPLE_EVERY.
const WEIGH_ALL = 2_000;
const SAMPLE_EVERY = 50;

export interface Node {
  port: number;
  redis: Redis;
  primary: boolean;
}

export interface Memory {
  used: number;
  dataset: number;
  rss: number;
}

export interface RedisNodes {
  nodes: Node[];
  // Memory of every primary added up (replicas hold copies), and CPU seconds of every node.
  memory(): Promise<Memory>;
  cpuSeconds(): Promise<number>;
  // "port 7001: 120 MiB, …": each primary's used_memory, to show where the data sits.
  byPrimary(): Promise<string>;
  // The primary holding database `dbId` (a cluster: the owner of the slot of `{db:<id>}`).
  primaryOf(dbId: string): Promise<Node>;
  close(): void;
}

// `url`: one redis:// URL, or the redis+cluster://host:port,… list of every node.
export async function redisNodes(url: string): Promise<RedisNodes> {
  const cluster = url.startsWith('redis+cluster://');
  const ports = cluster
    ? url
        .slice('redis+cluster://'.length)
        .split(',')
        .map((hp) => Number(hp.split(':')[1]))
    : [new URL(url).port ? Number(new URL(url).port) : 6379];
  const nodes: Node[] = [];
  for (const port of ports) {
    const redis = cluster ? new Redis({ host: '127.0.0.1', port }) : new Redis(url);
    const primary = /^role:master/m.test(await redis.info('replication'));
    nodes.push({ port, redis, primary });
  }
  const primaries = nodes.filter((n) => n.primary);
  return {
    nodes,
    memory: async () => {
      const all = await Promise.all(primaries.map((n) => redisMemory(n.redis)));
      return all.reduce((a, m) => ({ used: a.used + m.used, dataset: a.dataset + m.dataset, rss: a.rss + m.rss }), {
        used: 0,
        dataset: 0,
        rss: 0,
      });
    },
    byPrimary: async () =>
      (await Promise.all(primaries.map(async (n) => `port ${n.port}: ${fmtInt((await redisMemory(n.redis)).used / 1024 ** 2)} MiB`))).join(
        ', ',
      ),
    cpuSeconds: async () => (await Promise.all(nodes.map((n) => redisCpuSeconds(n.redis)))).reduce((a, b) => a + b, 0),
    primaryOf: async (dbId) => {
      if (!cluster) return nodes[0]!;
      const slot = Number(await primaries[0]!.redis.call('CLUSTER', 'KEYSLOT', `{db:${dbId}}`));
      for (const n of primaries) {
        // CLUSTER NODES: the `myself` line lists this node's slot ranges after its 8 fixed fields.
        const mine = String(await n.redis.call('CLUSTER', 'NODES'))
          .split('\n')
          .find((l) => l.split(' ')[2]?.split(',').includes('myself'));
        const ranges = (mine ?? '')
          .split(' ')
          .slice(8)
          .filter((r) => /^\d+(-\d+)?$/.test(r));
        const holds = (range: string) => {
          const [lo, hi = lo] = range.split('-').map(Number) as [number, number?];
          return slot >= lo && slot <= hi!;
        };
        if (ranges.some(holds)) return n;
      }
      throw new Error(`no primary holds slot ${slot} of database ${dbId}`);
    },
    close: () => {
      for (const n of nodes) n.redis.disconnect();
    },
  };
}

export interface Kind {
  kind: string;
  keys: number;
  bytes: number;
  weighed: number;
}

// A key's kind: its hash tag's id, uuids and every run of digits replaced, so one user's key and
// another's (one model's and the next's) agree.
const kindOf = (key: string) =>
  key
    .replace(/\{(db|org):[^}]*\}/g, '{$1}')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
    .replace(/[0-9]+/g, 'N');

// The keys of one node by kind, largest first; the bytes of a kind with more keys than were weighed are
// the weighed keys' mean times its keys.
export async function keysByKind(redis: Redis): Promise<Kind[]> {
  const kinds = new Map<string, { keys: number; sample: string[] }>();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'COUNT', 10_000);
    cursor = next;
    for (const key of found) {
      const k = kindOf(key);
      const entry = kinds.get(k) ?? { keys: 0, sample: [] };
      entry.keys++;
      if (entry.keys < WEIGH_ALL || entry.keys % SAMPLE_EVERY === 0) entry.sample.push(key);
      kinds.set(k, entry);
    }
  } while (cursor !== '0');
  const out: Kind[] = [];
  for (const [kind, { keys, sample }] of kinds) {
    let weighedBytes = 0;
    for (const key of sample) weighedBytes += Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
    out.push({ kind, keys, bytes: (weighedBytes / sample.length) * keys, weighed: sample.length });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

// The kinds holding at least 0.1 % of `total` bytes, largest first, as a markdown table.
export function kindTable(kinds: Kind[], total: number, ratings: number): string[] {
  return [
    '| key kind | keys | MiB (estimated) | share | bytes per rating | keys weighed |',
    '|---|---:|---:|---:|---:|---:|',
    ...kinds
      .filter((k) => k.bytes > 0.001 * total)
      .map(
        (k) =>
          `| \`${k.kind}\` | ${fmtInt(k.keys)} | ${fmtInt(k.bytes / 1024 ** 2)} | ${((k.bytes / total) * 100).toFixed(1)} % | ${(k.bytes / ratings).toFixed(2)} | ${fmtInt(k.weighed)} |`,
      ),
  ];
}
