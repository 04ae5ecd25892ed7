// The servers a load benchmark measures, as child processes: recd (CLI, its root account, launchRecd) and the bare uWS hello-world (HELLO).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, type Managed } from './processes.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const CLI = resolve(HERE, '../../src/cli.js');
export const HELLO = resolve(HERE, '../http/hello-uws.js');
export const HOST = '127.0.0.1';

export const ROOT_EMAIL = 'root@bench.local';
export const ROOT_PASSWORD = 'Root-password-1';

// recd's LOG_LEVEL: BENCH_RECD_LOG_LEVEL, default warn (info shows why it stopped, should it stop).
export const recdLogLevel = () => process.env.BENCH_RECD_LOG_LEVEL || 'warn';
// Node options for recd: BENCH_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
export const recdNodeArgs = () => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
// Serving processes: 1 unless BENCH_RECD_WORKERS says otherwise (0: one per core, recd's default, as
// `npm start` runs it on the machine).
export const recdWorkers = () => process.env.BENCH_RECD_WORKERS || '1';

export interface RecdOptions {
  cli?: string; // default CLI (this checkout's build)
  port: number;
  redisUrl: string;
  env?: Record<string, string>; // more of recd's environment
  nodeArgs?: string[]; // default recdNodeArgs()
  logLevel?: string; // default recdLogLevel()
}

// glibc's malloc settings `npm start` runs recd with (package.json; README, "Memory"), so that the
// benchmarks measure recd as it is run.
export const MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

// `node [nodeArgs] <cli> serve` on HOST:port with the root account, over this process's environment;
// one serving process (RECD_WORKERS=1, unless BENCH_RECD_WORKERS or o.env says otherwise), which the
// benchmarks measure (the CPU of a supervisor counts its workers', bench/lib/cpu.ts).
// No parameter search unless RECD_SEARCH_SECONDS says so: the benchmarks measure a model of the
// configured factors (a search would choose them per data set; retrain.ts checks them).
export function launchRecd(name: string, o: RecdOptions): Managed {
  return launch(name, [...(o.nodeArgs ?? recdNodeArgs()), o.cli ?? CLI, 'serve'], {
    RECD_SEARCH_SECONDS: '0',
    ...process.env,
    ...MALLOC_ENV,
    RECD_WORKERS: recdWorkers(),
    PORT: String(o.port),
    HOST,
    REDIS_URL: o.redisUrl,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    ...o.env,
    LOG_LEVEL: o.logLevel ?? recdLogLevel(),
  });
}
