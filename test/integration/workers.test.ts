// `recd serve --workers N`: N serving processes on one port and one Redis under a supervisor that
// starts the embedded redis-server and the root account once, restarts a worker that dies, stops
// everything on SIGTERM, and gives up on a worker that cannot start; `--workers 1` is one process.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { alive, childrenOf, logLines, portOpen, run, serveTwoWorkers, until, type Proc } from '../helpers/cli.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from '../helpers/stack.js';

const lines = (p: Proc, msg: string) => logLines(p.out()).filter((l) => l.msg === msg);
const workerPids = (p: Proc) => lines(p, 'worker listening').map((l) => l.pid as number);

// Two workers on a private redis-server, started and logged in as root; stopped (SIGTERM) at teardown.
async function twoWorkers(t: Test) {
  const { proc, port } = await serveTwoWorkers(t);
  const api = new Api(`http://127.0.0.1:${port}/v1`);
  const login = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.equal(login.status, 200, 'root logs in');
  return { proc, port, api, token: login.body.token as string };
}

// GET on a keep-alive connection of its own (an agent of one socket): the status and the client's port.
function getOn(agent: Agent, url: string, token: string): Promise<{ status: number; clientPort: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const clientPort = res.socket.localPort!;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, clientPort }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Which of `pids` holds the server end of the connection from each client port to `port`:
// /proc/net/tcp names each established connection's socket inode, /proc/<pid>/fd who holds it.
function serverEnds(port: number, clientPorts: number[], pids: number[]): Map<number, number | undefined> {
  const inodeOf = new Map<number, string>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== '01') continue; // 01: ESTABLISHED
    const local = parseInt(f[1]!.split(':')[1]!, 16);
    const remote = parseInt(f[2]!.split(':')[1]!, 16);
    if (local === port) inodeOf.set(remote, f[9]!);
  }
  const holder = new Map<string, number>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed meanwhile
      }
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m) holder.set(m[1]!, pid);
    }
  }
  return new Map(clientPorts.map((cp) => [cp, holder.get(inodeOf.get(cp) ?? '')]));
}

t.test('two workers share one port: every request answered, connections spread over both', async (t) => {
  const { proc, port, token } = await twoWorkers(t);
  t.equal(lines(proc, 'recd listening').length, 1, 'one "recd listening" line');
  t.equal(lines(proc, 'recd listening')[0]!.port, port);
  const pids = workerPids(proc);
  t.equal(new Set(pids).size, 2, 'two worker processes');
  t.same(
    childrenOf(proc.child.pid!)
      .map((c) => c.pid)
      .sort(),
    [...pids].sort(),
    "they are the supervisor's children",
  );

  // Connections of 4 requests each, 8 at a time, until both workers have answered some (the kernel
  // hashes each new connection to one of them: two in a row land on the same one half the time).
  const served = new Map<number, number>(pids.map((p) => [p, 0]));
  const statuses: number[] = [];
  for (let batch = 0; batch < 16 && [...served.values()].some((n) => n === 0); batch++) {
    const agents = Array.from({ length: 8 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const ports = await Promise.all(
      agents.map(async (agent) => {
        const seen = new Set<number>();
        for (let k = 0; k < 4; k++) {
          const r = await getOn(agent, `http://127.0.0.1:${port}/v1/databases/`, token);
          statuses.push(r.status);
          seen.add(r.clientPort);
        }
        t.equal(seen.size, 1, 'one connection per agent');
        return [...seen][0]!;
      }),
    );
    for (const [, pid] of serverEnds(port, ports, pids)) {
      t.ok(pid !== undefined, 'a worker holds the connection');
      if (pid !== undefined) served.set(pid, served.get(pid)! + 1);
    }
    for (const agent of agents) agent.destroy();
  }
  t.ok(statuses.length >= 32 && statuses.every((s) => s === 200), `${statuses.length} requests, all 200`);
  t.ok(
    [...served.values()].every((n) => n > 0),
    `connections per worker: ${JSON.stringify(Object.fromEntries(served))}`,
  );
});

t.test('embedded Redis: one redis-server for all workers, the password printed once, SIGTERM stops everything', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'recd-workers-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const proc = run(['serve', '--workers', '2'], { PORT: String(port), RECD_DATA_DIR: dataDir });
  await until('start', () => proc.out().includes('recd listening'));
  t.equal(proc.out().match(/password: /g)?.length, 1, 'the generated password is printed once');
  t.equal(lines(proc, 'embedded redis-server started').length, 1, 'one redis-server started');
  const redisPort = lines(proc, 'embedded redis-server started')[0]!.port as number;
  const pids = workerPids(proc);
  t.equal(pids.length, 2);
  const guard = childrenOf(proc.child.pid!).find((c) => c.comm !== 'node');
  const children = [...childrenOf(proc.child.pid!), ...(guard ? childrenOf(guard.pid) : [])];
  // The redis-server runs under its guard (src/store/redis-guard.ts; comm is cut at 15 characters).
  t.same(
    children.map((c) => c.comm).sort(),
    ['node', 'node', 'recd-redis-guar', 'redis-server'],
    'the supervisor runs two workers and one redis-server',
  );
  for (const pid of pids) t.same(childrenOf(pid), [], `worker ${pid} started no redis-server`);
  const password = /password: (\S+)/.exec(proc.out())![1]!;
  const login = await new Api(`http://127.0.0.1:${port}/v1`).post('login/root/', { email: 'root@localhost', password });
  t.equal(login.status, 200, 'the printed password works');

  proc.child.kill('SIGTERM');
  t.equal(await proc.exited, 0, 'SIGTERM: exit code 0');
  t.notOk(pids.some(alive), 'the workers are gone');
  t.notOk(
    children.some((c) => alive(c.pid)),
    'the redis-server is gone',
  );
  t.equal(await portOpen(port), false, 'no longer listening');
  t.equal(await portOpen(redisPort), false, 'redis no longer listening');
  t.equal(lines(proc, 'worker died').length, 0, 'no worker was taken for dead');
});

t.test('a worker killed with SIGKILL is replaced; the other serves meanwhile', async (t) => {
  const { proc, api, token } = await twoWorkers(t);
  const [victim, survivor] = workerPids(proc) as [number, number];
  process.kill(victim, 'SIGKILL');
  await until('the death noticed', () => lines(proc, 'worker died').length === 1);
  t.equal(lines(proc, 'worker died')[0]!.workerPid, victim);
  t.equal(lines(proc, 'worker died')[0]!.signal, 'SIGKILL');
  for (let k = 0; k < 10; k++) t.equal((await api.get('databases/', { token })).status, 200, 'answered without it');
  await until('the restart', () => lines(proc, 'worker restarted').length === 1);
  const replacement = lines(proc, 'worker restarted')[0]!.workerPid as number;
  t.not(replacement, victim);
  t.same(
    childrenOf(proc.child.pid!)
      .map((c) => c.pid)
      .sort(),
    [survivor, replacement].sort(),
    'two workers again',
  );
  for (let k = 0; k < 10; k++) t.equal((await api.get('databases/', { token })).status, 200, 'answered with it');
  t.ok(alive(survivor));
});

t.test('a worker that cannot start stops the supervisor: exit 1 with its error, nothing left running', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  // A socket on worker 1's metrics port: that worker cannot start. (One on the API's port is
  // refused by the supervisor before any worker starts: test/integration/root-and-port.test.ts.)
  const blocker = createServer();
  await new Promise<void>((res) => blocker.listen(0, '127.0.0.1', res));
  t.teardown(() => new Promise<void>((res) => blocker.close(() => res())));
  const metricsPort = (blocker.address() as { port: number }).port;
  const proc = run(['serve', '--workers', '2'], {
    PORT: String(await freePort()),
    REDIS_URL: server.url,
    RECD_METRICS_PORT: String(metricsPort),
  });
  t.equal(await proc.exited, 1);
  t.match(proc.out(), new RegExp(`recd: worker \\d failed at start-up: .*EADDRINUSE.*${metricsPort}`));
  const redis = new Redis(server.url);
  t.teardown(() => redis.disconnect());
  // Every connection to Redis but this one is closed: no worker or supervisor left.
  await until('the workers gone from Redis', async () => ((await redis.client('LIST')) as string).trim().split('\n').length === 1);
  t.pass('no other Redis client');
});

t.test('--workers 1: one process, no supervisor', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const proc = run(['serve', '--workers', '1'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  });
  await until('start', () => proc.out().includes('recd listening'));
  t.equal(lines(proc, 'recd listening')[0]!.pid, proc.child.pid, 'the process itself listens');
  t.equal(lines(proc, 'worker listening').length, 0, 'no workers');
  t.same(childrenOf(proc.child.pid!), [], 'no child process');
  const login = await new Api(`http://127.0.0.1:${port}/v1`).post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.equal(login.status, 200);
  proc.child.kill('SIGTERM');
  t.equal(await proc.exited, 0);
});

t.test('RECD_WORKERS and --workers are checked', async (t) => {
  const bad = run(['serve', '--workers', 'many'], { PORT: '0' });
  t.equal(await bad.exited, 78, 'a wrong setting: exit code 78');
  t.match(bad.out(), /RECD_WORKERS must be an integer/);
  const unknown = run(['serve', '--wrokers', '2'], { PORT: '0' });
  t.equal(await unknown.exited, 2, 'a wrong command line: exit code 2');
  t.match(unknown.out(), /recd: Unknown option '--wrokers'.*usage: recd serve \[--workers N\]/);
});
