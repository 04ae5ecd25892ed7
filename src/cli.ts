#!/usr/bin/env node
// `recd serve [--workers N]` (default) runs the service, as one process or as a supervisor of N
// (src/supervisor.ts); `recd create-root --email E [--reset]` adds a root account (or sets its
// password); `recd import|export` move files to and from a running recd (src/cli/); `recd plan`
// estimates what a database of a given size needs (src/cli/plan.ts). Exit codes: 0 done, 2 a wrong command line (or an
// import file that fits no property), 78 a wrong setting (sysexits' EX_CONFIG), 1 anything else.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pino, type Logger } from 'pino';
import { ConfigError, loadConfig } from './config/env.js';
import { unknownSettings } from './config/unknown-env.js';
import { importFile, summaryText } from './cli/import.js';
import { exportFile } from './cli/export.js';
import { FileMismatch } from './cli/file-mismatch.js';
import { KINDS, type Kind } from './cli/kinds.js';
import { Progress } from './cli/progress.js';
import { formatOf } from './cli/rows.js';
import { RunStopped } from './cli/run-stopped.js';
import { plan } from './cli/plan-model.js';
import { planText, sizesOf } from './cli/plan.js';
import { ApiError } from './errors/api-error.js';
import { HELP, USAGE, type Command } from './cli/usage.js';

// The service's modules load only for the commands that run it: the client commands (import,
// export) then start in a fraction of the time.
const serviceModules = () => Promise.all([import('./main.js'), import('./supervisor.js')]);

const CLI = fileURLToPath(import.meta.url);

class UsageError extends Error {
  override name = 'UsageError';
}

// create-root on an e-mail that is taken: nothing changed.
class AccountExists extends Error {
  override name = 'AccountExists';
}

const EXIT_USAGE = 2;
const EXIT_CONFIG = 78;
const EXIT_FAILED = 1;

function version(): string {
  // dist/src/cli.js and src/cli.ts are both two levels below the package.
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string };
  return pkg.version;
}

// Options and positional arguments; only `import` and `export` take positional ones.
function argsOf<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, command: Command) {
  const usage = HELP[command].split('\n')[0]!;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}; ${usage}`);
  }
  if (command !== 'import' && command !== 'export' && parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${parsed.positionals[0]}; ${usage}`);
  return parsed;
}

// RECD_ variables of the client commands (import), not settings of the service.
const CLIENT_ENV = ['RECD_URL', 'RECD_TOKEN'];

// Warned, not refused: see src/config/unknown-env.ts.
function warnUnknownSettings(logger: Logger, known: string[] = []): void {
  for (const { variable, closest } of unknownSettings(process.env, [...known, ...CLIENT_ENV])) {
    logger.warn({ variable, closest }, `unknown setting ${variable} is ignored: did you mean ${closest}?`);
  }
}

async function serve(args: string[]): Promise<void> {
  const { workers } = argsOf(args, { workers: { type: 'string' } }, 'serve').values;
  const config = loadConfig(workers === undefined ? process.env : { ...process.env, RECD_WORKERS: workers });
  const [{ startApp }, { joinSupervisor, shutdownMs, startSupervisor, WORKER_ENV, workerCount, workerNumber }] = await serviceModules();
  const worker = workerNumber();
  const logger = worker === undefined ? pino({ level: config.logLevel }) : pino({ level: config.logLevel }).child({ worker });
  // The supervisor warns once for all its workers.
  if (worker === undefined) warnUnknownSettings(logger, [WORKER_ENV]);
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
  // The generated account before "recd listening": whatever waits for that line (a script, a test
  // reading the password) finds the account already written, not in a later chunk of the output.
  if (app.generatedRoot) {
    process.stdout.write(
      `\n  recd generated a root account (shown once; store it now):\n    email:    ${app.generatedRoot.email}\n    password: ${app.generatedRoot.password}\n\n`,
    );
  }
  logger.info({ host: config.host, port: app.port, workers: count }, 'recd listening');
}

async function createRoot(args: string[]): Promise<void> {
  const { email, reset } = argsOf(args, { email: { type: 'string' }, reset: { type: 'boolean' } }, 'create-root').values;
  if (!email) throw new UsageError(`--email is required; ${HELP['create-root'].split('\n')[0]}`);
  const password = process.env.RECD_ROOT_PASSWORD || (await passwordFromStdin());
  if (!password) throw new UsageError('no password: set RECD_ROOT_PASSWORD or write it to standard input');
  const config = loadConfig({ ...process.env, RECD_ROOT_EMAIL: email, RECD_ROOT_PASSWORD: password, LOG_LEVEL: 'warn' });
  const [{ withAccounts }, { WORKER_ENV }] = await serviceModules();
  const logger = pino({ level: 'warn' });
  warnUnknownSettings(logger, [WORKER_ENV]);
  const created = await withAccounts(config, logger, async (accounts) => {
    if (!reset) return accounts.createRoot(email, password);
    await accounts.resetRootPassword(email, password);
    return true;
  });
  if (!created)
    throw new AccountExists(
      `an account ${email} already exists: its password is unchanged; to set a new one (which ends its sessions), run recd create-root --email ${email} --reset`,
    );
  process.stdout.write(
    reset ? `root account ${email} has a new password; its earlier sessions are ended\n` : `root account ${email} is in place\n`,
  );
}

// The arguments of import and export, which take the same.
function transferArgs(args: string[], command: 'import' | 'export') {
  const parsed = argsOf(args, { url: { type: 'string' } }, command);
  const [kind, file, ...extra] = parsed.positionals;
  if (!kind || !KINDS.includes(kind as Kind) || !file || extra.length > 0) throw new UsageError(HELP[command].split('\n')[0]!);
  if (!formatOf(file)) throw new UsageError(`${file}: the file name must end in .csv or .parquet`);
  const token = process.env.RECD_TOKEN;
  if (!token) throw new UsageError('no token: set RECD_TOKEN to an access token of the database (root, manager or backend)');
  const url = parsed.values.url ?? process.env.RECD_URL ?? 'http://127.0.0.1:8080/v1';
  warnUnknownSettings(pino({ level: 'warn' }, process.stderr));
  return { kind: kind as Kind, file, url, token };
}

async function importCommand(args: string[]): Promise<void> {
  const { kind, file, url, token } = transferArgs(args, 'import');
  const summary = await importFile(kind, file, url, token, new Progress());
  process.stdout.write(`${summaryText(file, summary)}\n`);
}

async function exportCommand(args: string[]): Promise<void> {
  const { kind, file, url, token } = transferArgs(args, 'export');
  const { rows, seconds } = await exportFile(kind, file, url, token, new Progress());
  process.stdout.write(`${file}: ${rows} ${kind} written in ${seconds.toFixed(1)} s\n`);
}

async function planCommand(args: string[]): Promise<void> {
  const option = { type: 'string' } as const;
  const { values } = argsOf(args, { users: option, items: option, ratings: option, factors: option }, 'plan');
  const config = loadConfig();
  const sizes = sizesOf(values, config.alsFactors);
  if ('error' in sizes) throw new UsageError(`${sizes.error}; ${HELP.plan.split('\n')[0]}`);
  const input = {
    ...sizes,
    listLength: config.listLength,
    userListsSeconds: config.userListsSeconds,
    searchSeconds: config.searchSeconds,
    searchMaxRatings: config.searchMaxRatings,
    userListCache: config.userListCache,
    itemIndexMinItems: config.itemIndexMinItems,
  };
  process.stdout.write(`${planText(input, plan(input))}\n`);
}

// The first line of standard input; on a terminal, asked for and not echoed.
async function passwordFromStdin(): Promise<string> {
  const stdin = process.stdin;
  const tty = stdin.isTTY === true;
  if (tty) {
    process.stderr.write('password: ');
    stdin.setRawMode(true);
  }
  let got = '';
  try {
    for await (const chunk of stdin) {
      got += String(chunk);
      if (tty && got.includes('\u0003')) throw new UsageError('interrupted');
      if (/[\r\n]/.test(got)) break;
    }
  } finally {
    if (tty) {
      stdin.setRawMode(false);
      process.stderr.write('\n');
    }
    stdin.pause();
  }
  return got.split(/\r?\n|\r/)[0]!;
}

function main(argv: string[]): Promise<void> {
  const [first = 'serve', ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    process.stdout.write(`${topic && Object.hasOwn(HELP, topic) ? HELP[topic as Command] : USAGE}\n`);
    return Promise.resolve();
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`recd ${version()}\n`);
    return Promise.resolve();
  }
  // `recd --workers 2` is `recd serve --workers 2`.
  const [command, args] = first.startsWith('-') ? ['serve', argv] : [first, rest];
  if (!Object.hasOwn(HELP, command)) return Promise.reject(new UsageError(`unknown command ${command}\n${USAGE}`));
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${HELP[command as Command]}\n`);
    return Promise.resolve();
  }
  const run = { serve, 'create-root': createRoot, import: importCommand, export: exportCommand, plan: planCommand }[command as Command];
  return run(args);
}

// The service's own failures with a message for operators (else the stack is shown).
async function serviceFailure(err: unknown): Promise<boolean> {
  const [{ RedisDirInUse, RedisNotInstalled }, { UnsafeEvictionPolicy }, { WorkerFailed }, { ListenFailed }] = await Promise.all([
    import('./store/redis-server.js'),
    import('./store/redis-memory.js'),
    import('./supervisor.js'),
    import('./http/server.js'),
  ]);
  return (
    err instanceof RedisNotInstalled
    || err instanceof RedisDirInUse
    || err instanceof UnsafeEvictionPolicy
    || err instanceof WorkerFailed
    || err instanceof ListenFailed
  );
}

function exitCodeOf(err: unknown): number {
  if (err instanceof UsageError || err instanceof FileMismatch) return EXIT_USAGE;
  if (err instanceof ConfigError) return EXIT_CONFIG;
  return EXIT_FAILED;
}

main(process.argv.slice(2)).catch(async (err: unknown) => {
  const known =
    err instanceof UsageError
    || err instanceof AccountExists
    || err instanceof ConfigError
    || err instanceof RunStopped
    || err instanceof FileMismatch
    || err instanceof ApiError
    || (await serviceFailure(err));
  const message = known ? (err as Error).message : ((err as Error).stack ?? String(err));
  // A worker's error goes to its supervisor (over the IPC channel only workers have), which stops and prints it.
  const reported = process.send !== undefined && (await (await import('./supervisor.js')).reportStartFailure(message));
  if (!reported) process.stderr.write(`recd: ${message}\n`);
  process.exit(exitCodeOf(err));
});
