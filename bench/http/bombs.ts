// What compressed bodies sent to a public route cost recd (issue 18's target: a 10 MB compressed body to
// a public route costs ≤ 10 MB of memory and ≤ 50 ms of event loop): recd as a child process with the
// event-loop delay histogram (loop-delay-preload.ts), then BOMBS gzip bodies of ~10 MB, each inflating to
// ~10 GiB, sent at once to POST /v1/login/root/ (half with a Content-Length, half chunked), while
// GET /v1/ is timed every 20 ms. Reports recd's resident memory (now and peak) before and after, the
// loop delay over the bombs and the greetings' latency.
//
//   npm run build && node dist/bench/http/bombs.js        (BOMBS=8)
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startBenchStack } from '../lib/recd-stack.js';
import { rssOf } from '../lib/rss.js';
import { sleep } from '../lib/processes.js';

const BOMBS = Number(process.env.BOMBS ?? 8);
const MiB = 1024 * 1024;
const dir = mkdtempSync(join(os.tmpdir(), 'recd-bombs-'));
const loopFile = join(dir, 'loop.jsonl');
process.env.BENCH_NODE_ARGS = `--import ${resolve(dirname(fileURLToPath(import.meta.url)), '../lib/loop-delay-preload.js')}`;
process.env.BENCH_LOOP_DELAY_FILE = loopFile;

// A gzip stream of members of 10 MiB of spaces each: ~10 KiB sent per 10 MiB inflated.
const member = gzipSync(Buffer.alloc(10 * MiB, 0x20));
const bomb = Buffer.concat(Array.from({ length: Math.ceil((10 * MiB) / member.length) }, () => member));

// One request over a bare socket, its body written 64 KiB at a time (as a client's socket would send
// it) until an answer comes; resolves with the answer's status line, or how the connection ended.
function send(port: number, chunked: boolean): Promise<string> {
  return new Promise((done) => {
    const sock = connect(port, '127.0.0.1');
    let answer = '';
    let error = '';
    sock.on('data', (d) => {
      answer += d.toString('latin1');
      sock.end();
    });
    sock.on('error', (err) => (error = (err as NodeJS.ErrnoException).code ?? err.message));
    sock.on('close', () => done(answer.split('\r\n')[0] || `no answer (${error || 'closed'})`));
    const head = `${['POST /v1/login/root/ HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Content-Encoding: gzip', chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bomb.length}`].join('\r\n')}\r\n\r\n`;
    const body = chunked ? Buffer.concat([Buffer.from(`${bomb.length.toString(16)}\r\n`), bomb, Buffer.from('\r\n0\r\n\r\n')]) : bomb;
    sock.write(head);
    // One piece a turn of the loop, so an answer is read before the next piece can meet a closed socket.
    let at = 0;
    const more = () => {
      if (at >= body.length || answer !== '' || sock.destroyed) return;
      const piece = body.subarray(at, (at += 64 * 1024));
      if (sock.write(piece)) setTimeout(more, 1);
      else sock.once('drain', more);
    };
    sock.on('connect', () => setTimeout(more, 1));
  });
}

const stack = await startBenchStack();
try {
  const port = Number(new URL(stack.base).port);
  const before = await rssOf(stack.pid);
  process.kill(stack.pid, 'SIGUSR2'); // starts the histogram's reading
  const greetings: number[] = [];
  let sending = true;
  const greeter = (async () => {
    while (sending) {
      const t0 = performance.now();
      await fetch(`${stack.base}/`);
      greetings.push(performance.now() - t0);
      await sleep(20);
    }
  })();
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: BOMBS }, (_, i) => send(port, i % 2 === 1)));
  const seconds = (performance.now() - t0) / 1000;
  sending = false;
  await greeter;
  process.kill(stack.pid, 'SIGUSR2');
  await sleep(200);
  const loop = JSON.parse(readFileSync(loopFile, 'utf8').trim().split('\n').at(-1)!) as { p50: number; p99: number; max: number };
  const after = await rssOf(stack.pid);
  greetings.sort((a, b) => a - b);
  const mib = (b: number | undefined) => (b === undefined ? 'n/a' : (b / MiB).toFixed(1));
  const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  console.log(
    `### Compressed bodies to a public route (git \`${commit}\`, ${new Date().toISOString()}, ${os.cpus()[0]?.model}, ${os.cpus().length} cores)\n`,
  );
  console.log(
    `${BOMBS} gzip bodies of ${(bomb.length / 1e6).toFixed(1)} MB (each ~${((Math.ceil((10 * MiB) / member.length) * 10) / 1024).toFixed(1)} GiB inflated) sent at once to \`POST /v1/login/root/\`, half chunked; answers: ${[...new Set(answers)].join(', ')}; all answered in ${seconds.toFixed(2)} s.\n`,
  );
  console.log(
    '| recd RSS before MiB | after MiB | peak after MiB (peak before) | event-loop delay p50 / p99 / max ms | `GET /v1/` meanwhile: n, median / max ms |',
  );
  console.log('|---:|---:|---:|---|---|');
  console.log(
    `| ${mib(before?.rssBytes)} | ${mib(after?.rssBytes)} | ${mib(after?.peakBytes)} (${mib(before?.peakBytes)}) | ${loop.p50.toFixed(2)} / ${loop.p99.toFixed(2)} / ${loop.max.toFixed(2)} | ${greetings.length}, ${greetings[greetings.length >> 1]?.toFixed(2)} / ${greetings.at(-1)?.toFixed(2)} |`,
  );
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
