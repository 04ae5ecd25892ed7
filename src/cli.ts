#!/usr/bin/env node
// `recd serve` (default) runs the service; `recd create-root --email E --password P` adds a root account.
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { ConfigError, loadConfig } from './config/env.js';
import { ApiError } from './errors/api-error.js';
import { startApp } from './main.js';
import { RedisNotInstalled } from './store/redis-server.js';

async function serve(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const app = await startApp(config, logger);
  if (app.generatedRoot) {
    process.stdout.write(
      `\n  recd generated a root account (shown once; store it now):\n    email:    ${app.generatedRoot.email}\n    password: ${app.generatedRoot.password}\n\n`,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
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
}

async function createRoot(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } } });
  if (!values.email || !values.password) throw new ConfigError('usage: recd create-root --email EMAIL --password PASSWORD');
  const config = loadConfig({ ...process.env, RECD_ROOT_EMAIL: values.email, RECD_ROOT_PASSWORD: values.password, PORT: '0', LOG_LEVEL: 'warn' });
  const app = await startApp(config);
  await app.close();
  process.stdout.write(`root account ${values.email} is in place\n`);
}

const [command = 'serve', ...rest] = process.argv.slice(2);
const run = command === 'serve' ? serve() : command === 'create-root' ? createRoot(rest) : Promise.reject(new ConfigError(`unknown command ${command}: use serve or create-root`));
run.catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof RedisNotInstalled || err instanceof ApiError) process.stderr.write(`recd: ${err.message}\n`);
  else process.stderr.write(`recd: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
