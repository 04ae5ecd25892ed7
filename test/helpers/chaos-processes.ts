// The processes of the chaos tests (test/chaos/): recd as a child process that is killed with SIGKILL
// and started again on the same port, and a private redis-server killed and restarted from its AOF
// on the same directory and port.
import { readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startRedisServer, stopChild, type EmbeddedRedis } from '../../src/store/redis-server.js';
import { Api } from './api.js';
import { childrenOf, logLines, run, until, type Proc } from './cli.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from './stack.js';

// How long a start, or the writers' progress, may take: generous on a loaded 2-core machine (a start
// waits for Redis, the pools and the first listen).
export const WAIT_MS = 30_000;

// A private redis-server from redis.conf that can be killed and restarted on its directory and port.
export class ChaosRedis {
  private constructor(
    private server: EmbeddedRedis | undefined,
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<ChaosRedis> {
    const { server, dir } = await startRedis();
    return new ChaosRedis(server, dir, server.port);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  // SIGKILL: no shutdown, no last fsync; resolves once it has exited.
  async kill(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    process.kill(server.pid, 'SIGKILL');
    await server.stop(); // only waits for the exit (and drops the orphan guard)
  }

  // Where the AOF ends now: its newest incremental file (from the manifest) and that file's size.
  aofEnd(): AofEnd {
    const aofDir = join(this.dir, 'redis', 'appendonlydir');
    const incr = readFileSync(join(aofDir, 'appendonly.aof.manifest'), 'utf8')
      .split('\n')
      .filter((l) => / type i$/.test(l))
      .map((l) => /^file (\S+) /.exec(l)![1]!);
    const file = join(aofDir, incr[incr.length - 1]!);
    return { file, size: statSync(file).size };
  }

  // What a host crash leaves under appendfsync everysec, once the process is killed: the AOF cut
  // back to where it ended at `end` (what the kernel had not yet written to disk is gone; a command
  // cut in two is dropped at load, as aof-load-truncated does).
  cutAof(end: AofEnd): void {
    if (this.server) throw new Error('kill redis-server before cutting its AOF');
    if (this.aofEnd().file !== end.file) throw new Error(`the AOF was rewritten since ${end.file}: no cut to simulate`);
    truncateSync(end.file, end.size);
  }

  // Starts again on the same directory (it loads its AOF) and port.
  async restart(): Promise<void> {
    await this.kill();
    this.server = await startRedisServer(join(this.dir, 'redis'), this.port);
  }

  async close(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface AofEnd {
  file: string;
  size: number;
}

// `node dist/src/cli.js serve` on a port of its own, kept across restarts so that clients keep their
// address: one process unless `env` sets RECD_WORKERS (then kill() reaches the supervisor, and
// killWorker() one of its workers).
export class RecdProcess {
  private proc: Proc | undefined;
  private exited = false;
  private earlier = ''; // the output of the processes killed before this one
  private readonly guard = () => this.proc?.child.kill('SIGKILL'); // a test that dies takes recd along
  readonly api: Api;

  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.api = new Api(`http://127.0.0.1:${port}/v1`);
    process.on('exit', this.guard);
  }

  static async start(redisUrl: string, env: Record<string, string> = {}): Promise<RecdProcess> {
    const port = await freePort();
    const recd = new RecdProcess(port, {
      PORT: String(port),
      REDIS_URL: redisUrl,
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
      RECD_WORKERS: '1',
      // Writes are under test, not training: no task is picked up, and the pools stay small.
      RECD_TRAINING_POLL_MS: '3600000',
      RECD_TRAINING_THREADS: '1',
      RECD_SCORING_THREADS: '1',
      ...env,
    });
    await recd.restart();
    return recd;
  }

  get pid(): number | undefined {
    return this.exited ? undefined : this.proc?.child.pid;
  }

  // The error lines every process so far logged (what a 5xx answer left in the log).
  errors(): string[] {
    return logLines(this.earlier + (this.proc?.out() ?? ''))
      .filter((l) => l.level >= 50)
      .map((l) => JSON.stringify(l).slice(0, 2000));
  }

  // SIGKILL: no drain, no shutdown; resolves once it has exited.
  async kill(): Promise<void> {
    if (!this.proc || this.exited) return;
    this.proc.child.kill('SIGKILL');
    await this.proc.exited;
  }

  // Starts (again, after a kill) and resolves once it listens.
  async restart(): Promise<void> {
    await this.kill();
    this.earlier += this.proc?.out() ?? '';
    const proc = run(['serve'], this.env);
    this.proc = proc;
    this.exited = false;
    void proc.exited.then(() => {
      if (this.proc === proc) this.exited = true;
    });
    await until('recd listening', () => this.exited || proc.out().includes('recd listening'), WAIT_MS);
    if (this.exited) throw new Error(`recd exited at start:\n${proc.out().slice(-4000)}`);
  }

  // With RECD_WORKERS > 1: SIGKILL to one worker; resolves once the supervisor's replacement listens.
  async killWorker(): Promise<void> {
    const restarted = () => logLines(this.proc!.out()).filter((l) => l.msg === 'worker restarted').length;
    const before = restarted();
    const [victim] = childrenOf(this.pid!);
    if (!victim) throw new Error('recd has no worker to kill');
    process.kill(victim.pid, 'SIGKILL');
    await until('the killed worker replaced', () => restarted() > before, WAIT_MS);
  }

  // SIGTERM (a supervisor stops its workers), SIGKILL if it lingers.
  async close(): Promise<void> {
    if (this.proc && !this.exited) await stopChild(this.proc.child);
    process.removeListener('exit', this.guard);
  }
}
