// The load benchmarks' settings from the environment (BENCH_SECONDS, BENCH_ROUNDS, …) and the disturbance threshold.

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

export const settings = {
  seconds: envInt('BENCH_SECONDS', 10, 1),
  rounds: envInt('BENCH_ROUNDS', 3, 1),
  warmupSeconds: envInt('BENCH_WARMUP_SECONDS', 2, 0),
  connections: envInt('BENCH_CONNECTIONS', 64, 1),
  pipelinings: (process.env.BENCH_PIPELINING ?? '1,10').split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1)
      throw new Error(
        `BENCH_PIPELINING must be a comma-separated list of integers ≥ 1, got ${JSON.stringify(process.env.BENCH_PIPELINING)}`,
      );
    return n;
  }),
  // BENCH_FRESH_PROCESSES=1: every recd is restarted (same data, same Redis) before each round after the
  // first, so the rounds sample several processes per build: two processes of one build can differ by
  // tens of percent under wrk (where their code and heap land), which one pair cannot tell from a change.
  freshProcesses: process.env.BENCH_FRESH_PROCESSES === '1',
  wrk: process.env.BENCH_WRK !== '0', // BENCH_WRK=0 skips wrk even when it is installed
  // Before each run, wait (up to quietWaitSeconds) for a 1 s window in which processes other than ours use
  // less than quietMaxPct of one core: the machine may be shared. 0 disables the wait.
  quietMaxPct: envInt('BENCH_QUIET_MAX_PCT', 15, 0),
  quietWaitSeconds: envInt('BENCH_QUIET_WAIT_SECONDS', 120, 0),
  // How long bench/lib/retrain.ts waits for each training step (a run started during the upload, the
  // explicit retrain, what follows it): raise it for large data sets (20M ratings train for many minutes).
  retrainTimeoutSeconds: envInt('BENCH_RETRAIN_TIMEOUT_SECONDS', 600, 1),
};
// A run during which other processes used more than this share of one core is marked as disturbed.
export const DISTURBED_PCT = 25;
// Also read by the benches that start recd: BENCH_RECD_LOG_LEVEL (recd's LOG_LEVEL, default warn),
// BENCH_NODE_ARGS (node options for recd, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) and
// BENCH_RECD_WORKERS (serving processes, default 1; 0: one per core, as `npm start` runs recd).
