// Decoding a 1,000,000-row ratings structured array (u4, u4, f4, f8) pickled by a real Python with
// numpy: to columns (what the decoder yields) and on to one object per row (what JSON-shaped
// services need today). Run: npx tsc -p . && node dist/bench/codecs/pickle-decode.js
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { decodePickle } from '../../src/codecs/pickle/decode.js';
import { plainOf } from '../../src/codecs/pickle/ndarray.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 7;
const script = `
import pickle, sys
import numpy as np
n = ${ROWS}
a = np.zeros(n, dtype=[('user_id', '<u4'), ('item_id', '<u4'), ('rating', '<f4'), ('timestamp', '<f8')])
a['user_id'] = np.arange(n) % 6000
a['item_id'] = np.arange(n) % 4000
a['rating'] = 1 + np.arange(n) % 10
a['timestamp'] = 1.7e9 + np.arange(n)
sys.stdout.buffer.write(pickle.dumps({'ratings': a}, protocol=4))
`;
const bytes = new Uint8Array(execFileSync('python3', ['-c', script], { maxBuffer: 1 << 30 }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const time = (fn: () => unknown) => {
  const out: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return median(out);
};
const columns = time(() => decodePickle(bytes));
const rows = time(() => plainOf(decodePickle(bytes)));
console.log(`Machine: ${os.cpus()[0]?.model}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString()}`);
console.log(`Pickle of ${ROWS.toLocaleString('en-US')} rows: ${bytes.length.toLocaleString('en-US')} bytes; medians of ${RUNS} runs`);
console.log('| step | ms (median) |');
console.log('|---|---:|');
console.log(`| decodePickle → structured array as typed-array columns | ${columns.toFixed(1)} |`);
console.log(`| decodePickle + plainOf → one JS object per row | ${rows.toFixed(1)} |`);
