// What metrics cost recd's event loop, read off a CPU profile taken under load: the share of the busy
// (non-idle) time spent in frames that only exist because metrics are on (request observations, clock
// reads, the Redis command timer, prom-client's GC observer and histograms). HTTP A/B runs on this
// 2-core machine swing ±20 % between rounds, far more than the ≤ 3 % sought; the profile attributes
// the cost directly. Take the profiles with the recommendation bench, metrics on in A and off in B:
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" BENCH_RECO_SCENARIOS=I BENCH_ROUNDS=1 \
//   RECD_METRICS_PORT=0 BENCH_RECD_CLI_B=$PWD/dist/src/cli.js BENCH_RECD_B_ENV=RECD_METRICS_PORT= \
//   RECD_DATASETS=<folder of the MovieLens sets> node dist/bench/http/reco.js
//   node dist/bench/http/metrics-profile.js prof/*.0.001.cpuprofile      (main threads only)
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: Frame }[];
  samples: number[];
  timeDeltas: number[];
}

// Frames of the metrics code and of what it switches on; `now` is the native performance.now().
const METRICS =
  /^now |src\/metrics\/|\bobserved dist\/src\/http\/dispatch|perf\/observe|prom-client|redis\.sendCommand|src\/store\/redis\.js:2\d\b/;

const label = (f: Frame) => `${f.functionName || '(anonymous)'} ${f.url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber}`;

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  let busy = 0;
  let metrics = 0;
  const byFrame = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id)!;
    if (frame.functionName === '(idle)') return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    const name = label(frame);
    if (!METRICS.test(name)) return;
    metrics += us;
    byFrame.set(name, (byFrame.get(name) ?? 0) + us);
  });
  console.log(
    `${file}: busy ${(busy / 1e6).toFixed(2)} s, metrics ${(metrics / 1e3).toFixed(0)} ms = ${((metrics / busy) * 100).toFixed(2)} % of busy`,
  );
  for (const [name, us] of [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${(us / 1e3).toFixed(1)} ms  ${name}`);
}
