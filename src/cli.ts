#!/usr/bin/env node
// `recd serve [--workers N]` (default) runs the service, as one process or as a supervisor of N
// (src/supervisor.ts); `recd create-root --email E --password P` adds a root account.
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config/env.js';
import { ApiError } from './errors/api-error.js';
import { startApp } from './main.js';
import { RedisDirInUse, RedisNotInstalled } from './store/redis-server.js';
import { joinSupervisor, reportStartFailure, shutdownMs, startSupervisor, WorkerFailed, workerCount, workerNumber } from './supervisor.js';

const CLI = fileURLToPath(import.meta.url);

function argsOf<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, usage: string) {
  try {
    return parseArgs({ args, options }).values;
  } catch (err) {
    throw new ConfigError(`${(err as Error).message}; usage: ${usage}`);
  }
}

async function serve(args: string[]): Promise<void> {
  const { workers } = argsOf(args, { workers: { type: 'string' } }, 'recd serve [--workers N]');
  const config = loadConfig(workers === undefined ? process.env : { ...process.env, RECD_WORKERS: workers });
  const worker = workerNumber();
  const logger = worker === undefined ? pino({ level: config.logLevel }) : pino({ level: config.logLevel }).child({ worker });
  const count = workerCount(config);
  const app = count > 1 ? await startSupervisor(config, logger, CLI) : await startApp(config, logger, worker);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // A stop that waits on a Redis that is gone or stalled (or on a request that never ends) is cut
    // short here. What it abandons is safe: a training run is found by the next trainer once its
    // lease expires, and recorded FAILED and retried; clients of unfinished requests see their
    // connection close; the embedded redis-server is stopped by its guard when this process exits.
    const boundMs = shutdownMs(config, count > 1);
    setTimeout(() => {
      logger.error({ signal, seconds: boundMs / 1000 }, 'stop not finished in time: exiting with the rest abandoned');
      process.exit(1);
    }, boundMs).unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (worker !== undefined) return joinSupervisor(app.port, stop, logger);
  logger.info({ host: config.host, port: app.port, workers: count }, 'recd listening');
  if (app.generatedRoot) {
    process.stdout.write(
      `\n  recd generated a root account (shown once; store it now):\n    email:    ${app.generatedRoot.email}\n    password: ${app.generatedRoot.password}\n\n`,
    );
  }
}

async function createRoot(args: string[]): Promise<void> {
  const values = argsOf(args, { email: { type: 'string' }, password: { type: 'string' } }, 'recd create-root --email EMAIL --password PASSWORD');
  if (!values.email || !values.password) throw new ConfigError('usage: recd create-root --email EMAIL --password PASSWORD');
  const config = loadConfig({ ...process.env, RECD_ROOT_EMAIL: values.email, RECD_ROOT_PASSWORD: values.password, PORT: '0', LOG_LEVEL: 'warn' });
  const app = await startApp(config);
  await app.close();
  process.stdout.write(`root account ${values.email} is in place\n`);
}

const [command = 'serve', ...rest] = process.argv.slice(2);
const run = command === 'serve' ? serve(rest) : command === 'create-root' ? createRoot(rest) : Promise.reject(new ConfigError(`unknown command ${command}: use serve or create-root`));
run.catch(async (err: unknown) => {
  const known = err instanceof ConfigError || err instanceof RedisNotInstalled || err instanceof RedisDirInUse || err instanceof ApiError || err instanceof WorkerFailed;
  const message = known ? (err as Error).message : ((err as Error).stack ?? String(err));
  // A worker's error goes to its supervisor, which stops and prints it.
  if (!(await reportStartFailure(message))) process.stderr.write(`recd: ${message}\n`);
  process.exit(1);
});
