// Child processes of a benchmark: launch, stop, wait for a line or an HTTP answer, and every one launched (children).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Managed {
  name: string;
  child: ChildProcess;
  output: string; // tail of stdout + stderr
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  expectedExit: boolean;
}

export const children: Managed[] = [];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// BENCH_OUTPUT_DIR: every launched process's whole output also goes to <dir>/<name>.log (e.g. recd's
// --trace-gc-nvp lines, which the kept tail would lose). Written synchronously, so a bench that exits
// loses none of it; a chunk's write is small beside what the load generator does.
const OUTPUT_DIR = process.env.BENCH_OUTPUT_DIR;

export function launch(name: string, args: string[], env: NodeJS.ProcessEnv): Managed {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const m: Managed = { name, child, output: '', exit: undefined, expectedExit: false };
  const file = OUTPUT_DIR && join(OUTPUT_DIR, `${name.replace(/[^\w.-]+/g, '_')}.log`);
  const keep = (d: Buffer) => {
    if (file) appendFileSync(file, d);
    m.output += d.toString();
    if (m.output.length > 65536) m.output = m.output.slice(-16384);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => {
    m.exit = { code, signal };
    if (!m.expectedExit)
      process.stderr.write(
        `\n!! ${name} (pid ${child.pid}) exited unexpectedly: code ${code}, signal ${signal}\n${m.output.slice(-4000)}\n`,
      );
  });
  children.push(m);
  return m;
}

export function stop(m: Managed, timeoutMs = 10_000): Promise<void> {
  m.expectedExit = true;
  const c = m.child;
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    const timer = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.once('exit', () => {
      clearTimeout(timer);
      res();
    });
    c.kill('SIGTERM');
  });
}

export function assertAlive(m: Managed): void {
  if (m.exit)
    throw new Error(
      `${m.name} is not running (exit code ${m.exit.code}, signal ${m.exit.signal}); its last output:\n${m.output.slice(-4000)}`,
    );
}

export async function waitForLine(m: Managed, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = m.output.match(pattern);
    if (hit) return hit;
    assertAlive(m);
    if (Date.now() > deadline) throw new Error(`${m.name} did not become ready in ${timeoutMs} ms; output:\n${m.output.slice(-4000)}`);
    await sleep(50);
  }
}

export async function waitForHttp(m: Managed, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    assertAlive(m);
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${m.name} did not answer ${url} in ${timeoutMs} ms; output:\n${m.output.slice(-4000)}`);
    await sleep(100);
  }
}
