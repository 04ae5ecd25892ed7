// benchProgram: the frame of a benchmark program (temp dir, private redis-server, children stopped on exit or signal, exit code).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { children, stop } from './processes.js';

// More to undo when the program ends (after the children stop, before its redis-server does), e.g. a second redis-server.
const cleanups: (() => Promise<void>)[] = [];
export const atCleanup = (f: () => Promise<void>) => void cleanups.push(f);

// The frame of a benchmark program: a temp dir with a private redis-server (never 6379), every
// child stopped on exit or on a signal, the exit code set by how the body ended.
export async function benchProgram(name: string, body: (redis: EmbeddedRedis, dir: string) => Promise<number>): Promise<never> {
  const dir = mkdtempSync(join(os.tmpdir(), `recd-bench-${name}-`));
  let redis: EmbeddedRedis | undefined;
  let exitCode = 0;
  const cleanup = async () => {
    for (const m of children.slice().reverse()) await stop(m);
    for (const f of cleanups.splice(0).reverse()) await f();
    if (redis) await redis.stop();
    redis = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (sig: NodeJS.Signals) => {
    process.stderr.write(`\n${sig}: stopping children\n`);
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    redis = await startRedisServer(join(dir, 'redis'));
    if (redis.port === 6379) throw new Error('refusing to use port 6379');
    process.stderr.write(`redis-server on ${redis.url} (pid ${redis.pid})\n`);
    exitCode = await body(redis, dir);
  } catch (err) {
    exitCode = 1;
    process.stderr.write(`bench ${name} failed: ${(err as Error).stack ?? String(err)}\n`);
    for (const m of children) if (m.exit && !m.expectedExit) process.stderr.write(`${m.name} last output:\n${m.output.slice(-4000)}\n`);
  } finally {
    await cleanup();
  }
  process.exit(exitCode);
}
