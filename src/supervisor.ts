// `recd serve` with several workers: the supervisor, and the worker's side of its IPC channel.
//
// The supervisor starts once what the workers share (startShared: Redis, the embedded redis-server
// when REDIS_URL is unset, the root account), then forks N workers: `recd serve` again, each running
// startApp on that Redis and on one port. They share the port because uWebSockets.js listens with
// SO_REUSEPORT (its default, LIBUS_LISTEN_DEFAULT, when given a port) and Linux spreads new
// connections over every socket listening on it; a connection stays with the worker that accepted
// it. Only workers listen so: a lone recd takes its port exclusively, and the supervisor makes sure
// the port is free before its workers join on it, so that no unrelated recd shares it. The root
// account is made once the workers listen. The supervisor restarts a worker that dies, and on
// close() stops the workers, then Redis.
// With one worker there is no supervisor: `recd serve` is startApp itself.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './config/env.js';
import { ListenFailed, listenRefused } from './http/server.js';
import { startShared, type GeneratedRoot } from './main.js';
import { freePort, stopChild } from './store/redis-server.js';

// In a worker's environment: its number, 1..N. It is what makes `recd serve` a worker (internal:
// not a setting; the supervisor also sets RECD_WORKERS=1, REDIS_URL and PORT for it).
export const WORKER_ENV = 'RECD_WORKER';

// A worker that dies is started again after RESTART_FIRST_MS, doubled for each further death within
// WORKER_STABLE_MS of its start, up to RESTART_MAX_MS: a worker that cannot run (Redis gone, the port
// taken) is retried at a pace that costs nothing, one that crashed once is back at once.
const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 30_000;
const WORKER_STABLE_MS = 60_000;
// A worker stops within RECD_SHUTDOWN_SECONDS (src/cli.ts: it exits then, whatever is left); the
// supervisor waits this much more for it before killing it, and allows itself as much again.
const WORKER_EXIT_GRACE_MS = 2_500;

// How long `recd serve` may take to stop, as a supervisor or not.
export const shutdownMs = (config: Config, supervising: boolean): number =>
  config.shutdownSeconds * 1000 + (supervising ? 2 * WORKER_EXIT_GRACE_MS : 0);

type WorkerMessage = { kind: 'listening' } | { kind: 'failed'; message: string };

// A worker failed before it listened (the supervisor then stops everything); its message is the worker's error.
export class WorkerFailed extends Error {
  override name = 'WorkerFailed';
}

export const workerCount = (config: Config): number => config.workers || availableParallelism();

// This process's worker number; undefined unless a supervisor forked it (WORKER_ENV and an IPC channel).
export function workerNumber(): number | undefined {
  const raw = process.env[WORKER_ENV];
  return raw === undefined || raw === '' || !process.send ? undefined : Number(raw);
}

export interface Supervisor {
  port: number;
  generatedRoot: GeneratedRoot | undefined;
  // Stops every worker (each finishes its in-flight requests), then disconnects from Redis and stops
  // the embedded redis-server; fails when a worker did not stop cleanly (exit code not 0).
  close(): Promise<void>;
}

// cli: the file to fork (src/cli.js). Resolves once every worker listens; rejects with the first
// worker's start-up error, having stopped everything it started.
export async function startSupervisor(config: Config, logger: Logger, cli: string): Promise<Supervisor> {
  const count = workerCount(config);
  // Workers listen with SO_REUSEPORT and would join whatever recd (or its workers) holds the port.
  if (config.port !== 0 && !(await portFree(config.host, config.port))) throw new ListenFailed(listenRefused(config.host, config.port));
  const shared = await startShared(config, logger);
  // PORT=0: a free port, chosen here, for every worker and every restart. Not the first worker's
  // listen on port 0: uWebSockets.js sets SO_REUSEPORT only when given a port, so no other worker
  // could join that one.
  let port = config.port;
  let generatedRoot: GeneratedRoot | undefined;
  let workers: Workers | undefined;
  try {
    port ||= await freePort();
    workers = new Workers(config, logger, cli, shared.redisUrl, port);
    const all = workers;
    await Promise.all(Array.from({ length: count }, (_, k) => all.start(k + 1)));
    generatedRoot = await shared.generateRoot();
  } catch (err) {
    await workers?.stop();
    await shared.close();
    throw err;
  }
  const running = workers;
  return {
    port,
    generatedRoot,
    async close() {
      await running.stop();
      await shared.close();
      if (running.unclean > 0) throw new Error(`${running.unclean} of ${count} workers did not stop cleanly`);
      logger.info('recd stopped');
    },
  };
}

// The serving processes: forked, restarted with a backoff when they die, stopped together.
class Workers {
  private readonly live = new Map<number, ChildProcess>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly quickDeaths = new Map<number, number>();
  private stopping = false;
  unclean = 0; // workers that did not stop cleanly: the supervisor's stop fails too

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly cli: string,
    private readonly redisUrl: string,
    private readonly port: number,
  ) {}

  // Forks worker n; resolves once it listens, rejects with its error if it fails before.
  start(n: number): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REDIS_URL: this.redisUrl,
      PORT: String(this.port),
      RECD_WORKERS: '1',
      [WORKER_ENV]: String(n),
    };
    // The root account is in place (startShared): workers leave it alone.
    delete env.RECD_ROOT_EMAIL;
    delete env.RECD_ROOT_PASSWORD;
    const child = fork(this.cli, ['serve'], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.live.set(n, child);
    const started = Date.now();
    return new Promise((resolve, reject) => {
      let listening = false;
      let failure: string | undefined;
      child.on('message', (m: WorkerMessage) => {
        if (m.kind === 'listening') {
          listening = true;
          resolve();
        } else if (m.kind === 'failed') failure = m.message;
      });
      child.on('error', (err) => {
        if (!listening) reject(new WorkerFailed(`worker ${n} failed at start-up: ${err.message}`));
      });
      child.on('exit', (code, signal) => {
        if (this.live.get(n) === child) this.live.delete(n);
        if (!listening)
          reject(new WorkerFailed(`worker ${n} failed at start-up: ${failure ?? `it exited (code ${code}, signal ${signal})`}`));
        else this.exited(n, child, code, signal, Date.now() - started);
      });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const waitMs = shutdownMs(this.config, false) + WORKER_EXIT_GRACE_MS;
    await Promise.all([...this.live.values()].map((child) => stopChild(child, waitMs)));
  }

  // A worker that had listened exited: counted when stopping, restarted otherwise.
  private exited(n: number, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, livedMs: number): void {
    if (this.stopping) {
      if (code === 0) return;
      this.unclean++;
      this.logger.warn({ worker: n, workerPid: child.pid, code, signal }, 'worker did not stop cleanly');
      return;
    }
    this.logger.warn({ worker: n, workerPid: child.pid, code, signal }, 'worker died');
    this.restartLater(n, livedMs);
  }

  private restartLater(n: number, livedMs: number): void {
    const k = livedMs >= WORKER_STABLE_MS ? 0 : (this.quickDeaths.get(n) ?? 0);
    this.quickDeaths.set(n, k + 1);
    const delayMs = Math.min(RESTART_FIRST_MS * 2 ** k, RESTART_MAX_MS);
    this.logger.info({ worker: n, delayMs }, 'restarting worker');
    const timer = setTimeout(() => {
      this.timers.delete(n);
      this.start(n).then(
        () => this.logger.info({ worker: n, workerPid: this.live.get(n)?.pid }, 'worker restarted'),
        (err: Error) => {
          if (this.stopping) return;
          this.logger.error({ worker: n, err: err.message }, 'worker restart failed');
          this.restartLater(n, 0);
        },
      );
    }, delayMs);
    this.timers.set(n, timer);
  }
}

// Whether a socket may listen on host:port. Node listens without SO_REUSEPORT, so any listener
// there refuses it, shared or not. (Between this and the workers' listens another may take the
// port: the workers then fail to start, and say so.)
function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const probe = createServer();
    probe.once('error', () => res(false));
    probe.listen(port, host, () => probe.close(() => res(true)));
  });
}

// In a worker, once it listens: tells the supervisor, and stops when the supervisor goes away (its
// IPC channel closes: killed, or crashed), so that no worker outlives it.
export function joinSupervisor(port: number, stop: (why: string) => void, logger: Logger): void {
  logger.info({ port }, 'worker listening');
  process.send?.({ kind: 'listening' } satisfies WorkerMessage);
  process.once('disconnect', () => stop('supervisor gone'));
}

// In a worker whose start failed: hands its error to the supervisor, which reports it. False when
// there is no supervisor to tell (not a worker, or the channel is closed).
export function reportStartFailure(message: string): Promise<boolean> {
  if (workerNumber() === undefined || !process.send || !process.connected) return Promise.resolve(false);
  const send = process.send.bind(process);
  return new Promise((res) =>
    send({ kind: 'failed', message } satisfies WorkerMessage, undefined, {}, (err: Error | null) => res(err === null)),
  );
}
