// Redis's memory settings as recd needs them: its maxmemory-policy must be noeviction (checked at
// start and watched while serving), and a Redis at its maxmemory is not ready to serve.
// Read with INFO memory rather than CONFIG GET: managed Redis services often disable or rename
// CONFIG, while INFO (which carries maxmemory_policy since Redis 4) stays available.
import type { Logger } from 'pino';
import { Cluster, withinDeadline, type Connection, type Redis } from './redis.js';

// The one policy under which Redis never drops a key by itself. volatile-* policies are refused too:
// recd sets TTLs on keys that must live until then (refresh tokens, the training lock, idempotency
// keys, login-throttle windows), and evicting one early logs users out or lets two trainers run.
export const SAFE_POLICY = 'noeviction';
// How often a serving process reads the policy of every primary: one INFO a second per process, so
// that a policy changed under recd stops its writes within a second.
export const POLICY_WATCH_MS = 1000;

export interface NodeMemory {
  node: string; // host:port
  policy: string | undefined; // undefined: INFO refused or without the field
  used: number;
  max: number; // 0: no maxmemory
}

export class UnsafeEvictionPolicy extends Error {
  override name = 'UnsafeEvictionPolicy';
}

// Every primary (a cluster's each; otherwise the one server).
async function primaries(redis: Connection): Promise<Redis[]> {
  if (!(redis instanceof Cluster)) return [redis];
  await redis.ping(); // connected: the primaries are known
  return redis.nodes('master');
}

function field(info: string, name: string): string | undefined {
  return new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}

async function memoryOf(node: Redis): Promise<NodeMemory> {
  // Behind Sentinels the options name the primary, not its address.
  const name = node.options.sentinels?.length
    ? `${node.options.name ?? 'primary'} (from its Sentinels)`
    : `${node.options.host ?? '127.0.0.1'}:${node.options.port ?? 6379}`;
  const info = await node.info('memory');
  return {
    node: name,
    policy: field(info, 'maxmemory_policy'),
    used: Number(field(info, 'used_memory') ?? 0),
    max: Number(field(info, 'maxmemory') ?? 0),
  };
}

export async function readMemory(redis: Connection, ms: number): Promise<NodeMemory[]> {
  return withinDeadline(
    primaries(redis).then((nodes) => Promise.all(nodes.map(memoryOf))),
    ms,
  );
}

// Why the policy is unsafe, naming the primary; undefined when every primary's is noeviction or
// cannot be read (see PolicyWatch).
export function policyProblem(nodes: NodeMemory[]): string | undefined {
  const bad = nodes.find((n) => n.policy !== undefined && n.policy !== SAFE_POLICY);
  return bad && `Redis ${bad.node} has maxmemory-policy ${bad.policy}: it may evict recd's data; set maxmemory-policy ${SAFE_POLICY}`;
}

// Why Redis refuses writes for memory, undefined while it has room.
export function fullProblem(nodes: NodeMemory[]): string | undefined {
  const full = nodes.find((n) => n.max > 0 && n.used > n.max);
  return full && `Redis ${full.node} is full: used memory ${full.used} > maxmemory ${full.max}; writes are refused`;
}

// Refuses a Redis that may evict data, at start (a clear message; the CLI exits 1).
export async function checkPolicyAtStart(redis: Connection, ms: number, logger: Logger): Promise<void> {
  let nodes: NodeMemory[];
  try {
    nodes = await readMemory(redis, ms);
  } catch (err) {
    logger.warn(
      { error: (err as Error).message },
      `cannot read Redis's maxmemory-policy (INFO memory refused): make sure it is ${SAFE_POLICY}`,
    );
    return;
  }
  const problem = policyProblem(nodes);
  if (problem)
    throw new UnsafeEvictionPolicy(
      `${problem} (recd refuses to start: an evicting Redis silently loses acknowledged writes, accounts and the token secret)`,
    );
  if (nodes.some((n) => n.policy === undefined))
    logger.warn(`cannot read Redis's maxmemory-policy (INFO has no maxmemory_policy): make sure it is ${SAFE_POLICY}`);
}

// The policy of every primary, read every POLICY_WATCH_MS while serving. A policy that cannot be
// read (INFO refused, Redis away) keeps the last one known: an outage has its own answers.
export class PolicyWatch {
  unsafe: string | undefined; // why writes are refused now
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Connection,
    private readonly logger: Logger,
    private readonly ms = POLICY_WATCH_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.read().catch(() => undefined), this.ms).unref();
  }

  // Reads every primary now (also for a readiness probe); its memory, for the probe's other checks.
  async read(ms = this.ms): Promise<NodeMemory[]> {
    const nodes = await readMemory(this.redis, ms);
    this.update(policyProblem(nodes));
    return nodes;
  }

  private update(problem: string | undefined): void {
    if (problem === this.unsafe) return;
    if (problem) this.logger.error({ problem }, 'Redis may evict data: writes are refused (503) until its maxmemory-policy is noeviction');
    else this.logger.info(`Redis's maxmemory-policy is ${SAFE_POLICY} again: writes are served`);
    this.unsafe = problem;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
