// What REDIS_URL (or REDIS_CLUSTER_NODES) names: one Redis (redis://, rediss://, unix paths as ioredis
// takes them), a Redis Cluster given by some of its nodes, or the primary a group of Sentinels
// watches. Those two list hosts separated by commas, which no URL parser accepts as a host, hence the
// parsing of their own:
// - redis+cluster://[user:password@]host:port[,host:port…] (rediss+cluster:// for TLS): the client
//   learns the other nodes from any one of them; listing several lets it start while one is down;
// - redis+sentinel://[user:password@]host:port[,host:port…]/<primary name>[/<db>]: the Sentinels,
//   asked for the primary of that name (the credentials are the primary's; Sentinels without auth).
export interface RedisNode {
  host: string;
  port: number;
}

export type RedisTarget =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: RedisNode[]; username?: string; password?: string; tls: boolean }
  | { kind: 'sentinel'; sentinels: RedisNode[]; name: string; db: number; username?: string; password?: string; tls: boolean };

export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

const CLUSTER = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#@]+)\/?$/;
const SENTINEL = /^(rediss?)\+sentinel:\/\/(?:([^@/]*)@)?([^/?#@]+)\/([^/?#]+)(?:\/(\d+))?\/?$/;

function credentials(auth: string | undefined): { username?: string; password?: string } {
  if (auth === undefined) return {};
  const colon = auth.indexOf(':');
  const user = decodeURIComponent(colon < 0 ? auth : auth.slice(0, colon));
  return { ...(user !== '' ? { username: user } : {}), ...(colon >= 0 ? { password: decodeURIComponent(auth.slice(colon + 1)) } : {}) };
}

export function parseRedisTarget(raw: string): RedisTarget {
  const cluster = CLUSTER.exec(raw);
  if (cluster) {
    const [, scheme, auth, hosts] = cluster as unknown as [string, string, string | undefined, string];
    return { kind: 'cluster', nodes: parseNodes(hosts), tls: scheme === 'rediss', ...credentials(auth) };
  }
  const sentinel = SENTINEL.exec(raw);
  if (sentinel) {
    const [, scheme, auth, hosts, name, db] = sentinel as unknown as [
      string,
      string,
      string | undefined,
      string,
      string,
      string | undefined,
    ];
    return {
      kind: 'sentinel',
      sentinels: parseNodes(hosts, 26379),
      name: decodeURIComponent(name),
      db: Number(db ?? 0),
      tls: scheme === 'rediss',
      ...credentials(auth),
    };
  }
  if (/^[a-z][a-z0-9+.-]*\+cluster:/i.test(raw))
    throw new RedisUrlError(`a cluster URL is redis+cluster://[user:password@]host:port[,host:port…], got ${JSON.stringify(raw)}`);
  if (/^[a-z][a-z0-9+.-]*\+sentinel:/i.test(raw))
    throw new RedisUrlError(
      `a Sentinel URL is redis+sentinel://[user:password@]host:port[,host:port…]/<primary name>[/<db>], got ${JSON.stringify(raw)}`,
    );
  try {
    new URL(raw);
  } catch {
    throw new RedisUrlError(`not a URL: ${JSON.stringify(raw)}`);
  }
  return { kind: 'single', url: raw };
}

// host:port[,host:port…]; IPv6 hosts in brackets ([::1]:7000); the port defaults to Redis's (6379),
// or a Sentinel's (26379).
export function parseNodes(list: string, defaultPort = 6379): RedisNode[] {
  const nodes = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(s) ?? /^([^:[\]]+)(?::(\d+))?$/.exec(s);
      const port = Number(m?.[2] ?? defaultPort);
      if (!m || !Number.isInteger(port) || port < 1 || port > 65535)
        throw new RedisUrlError(`a node is host:port, got ${JSON.stringify(s)}`);
      return { host: m[1]!, port };
    });
  if (nodes.length === 0) throw new RedisUrlError('name at least one node');
  return nodes;
}
