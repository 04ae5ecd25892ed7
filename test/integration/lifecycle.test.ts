// The service as an operator runs it: `recd serve` on the embedded Redis, restarts, SIGTERM,
// configuration errors, a machine without redis-server, and `recd create-root`. `recd serve` as is:
// one worker per core, so a supervisor of workers on a machine of several (test/integration/workers.test.ts
// for what is particular to workers).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { portOpen, run, until } from '../helpers/cli.js';
import { startRedis } from '../helpers/stack.js';

t.test('recd serve on the embedded Redis: generated root, durable across restarts, clean stop', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'recd-life-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env = { PORT: String(port), RECD_DATA_DIR: dataDir };
  const first = run(['serve'], env);
  await until('the first start', () => /password: (\S+)/.test(first.out()) && first.out().includes('recd listening'));
  const password = /password: (\S+)/.exec(first.out())![1]!;
  const redisPort = Number(/"port":(\d+),"dir"/.exec(first.out())![1]);
  const api = new Api(`http://127.0.0.1:${port}/v1`);
  const login = await api.post('login/root/', { email: 'root@localhost', password });
  t.equal(login.status, 200, 'the printed root password works');
  const db = await api.post(
    'databases/',
    { name: 'kept', description: '', item_id_type: 'uint32', user_id_type: 'uint32' },
    { token: login.body.token },
  );
  t.equal(db.status, 200);

  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'SIGTERM stops with exit code 0');
  t.equal(await portOpen(redisPort), false, 'the embedded redis-server stopped with it');

  const second = run(['serve'], env);
  await until('the second start', () => second.out().includes('recd listening'));
  t.notMatch(second.out(), /password:/, 'the password is printed only once');
  const again = await api.post('login/root/', { email: 'root@localhost', password });
  t.equal(again.status, 200, 'accounts survived the restart (AOF)');
  const list = await api.get('databases/', { token: again.body.token });
  t.same(
    list.body.databases.map((d: { name: string }) => d.name),
    ['kept'],
  );
  second.child.kill('SIGINT');
  t.equal(await second.exited, 0, 'SIGINT stops too');
});

// The request is surely in flight when SIGTERM lands: its headers went first with
// `Expect: 100-continue`, and the body only after the server answered `100 Continue` (so it had
// parsed them) and the signal was sent. The server must still read the body and answer.
t.test('SIGTERM lets an in-flight request finish', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const proc = run(['serve'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_ROOT_EMAIL: 'root@test.local',
    RECD_ROOT_PASSWORD: 'Root-password-1',
  });
  await until('start', () => proc.out().includes('recd listening'));
  const body = JSON.stringify({ email: 'root@test.local', password: 'Root-password-1' });
  const socket = connect(port, '127.0.0.1');
  let got = '';
  socket.on('data', (d) => (got += d));
  const closed = new Promise<void>((res) => socket.on('close', () => res()));
  socket.write(
    `POST /v1/login/root/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await until('100 Continue', () => got.startsWith('HTTP/1.1 100 Continue'));
  proc.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 50)); // the signal reaches the server before the body does
  socket.write(body);
  await until('the answer', () => /\r\n\r\n[\s\S]*\r\n\r\n\{/.test(got) && got.trimEnd().endsWith('}'));
  const answer = got.slice(got.indexOf('\r\n\r\n') + 4);
  t.match(answer, /^HTTP\/1\.1 200 /, 'answered 200');
  t.type(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).token, 'string', 'with a token');
  socket.end();
  await closed;
  t.equal(await proc.exited, 0);
  t.equal(await portOpen(port), false, 'no longer listening');
});

t.test('a process that exits without stopping its redis-server takes it along', async (t) => {
  const launcher = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/store/redis-server.js');
  const dir = mkdtempSync(join(tmpdir(), 'recd-orphan-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = `import(${JSON.stringify(launcher)}).then(async (m) => { const r = await m.startRedisServer(${JSON.stringify(dir)}); console.log('port ' + r.port); process.exit(3); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise((res) => child.on('exit', res));
  t.equal(code, 3);
  const port = Number(/port (\d+)/.exec(out)![1]);
  let open = true;
  for (let i = 0; i < 40 && open; i++) {
    open = await portOpen(port);
    if (open) await new Promise((r) => setTimeout(r, 50));
  }
  t.equal(open, false, 'its redis-server is gone');
});

t.test('without redis-server installed, start-up says how to install it', async (t) => {
  const proc = run(['serve'], { PATH: '/nonexistent', PORT: '0', RECD_DATA_DIR: mkdtempSync(join(tmpdir(), 'recd-noredis-')) });
  t.equal(await proc.exited, 1);
  t.match(proc.out(), /redis-server is not installed.*apt-get install redis-server.*REDIS_URL/s);
});

t.test('a bad configuration value stops start-up naming the variable, with exit code 78', async (t) => {
  const proc = run(['serve'], { PORT: 'eighty' });
  t.equal(await proc.exited, 78);
  t.match(proc.out(), /PORT must be an integer/);
});

t.test('recd create-root adds a root account to an existing Redis', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const argv = run(['create-root', '--email', 'ops@test.local', '--password', 'Strong-password-9'], { REDIS_URL: server.url });
  t.equal(await argv.exited, 2, 'a password on the command line is refused as a usage error');
  t.match(argv.out(), /Unknown option '--password'/);
  const weak = run(['create-root', '--email', 'ops@test.local'], { REDIS_URL: server.url, RECD_ROOT_PASSWORD: 'weak' });
  t.equal(await weak.exited, 1);
  t.match(weak.out(), /password must have/);
  const none = run(['create-root', '--email', 'ops@test.local'], { REDIS_URL: server.url }, '');
  t.equal(await none.exited, 2);
  t.match(none.out(), /no password: set RECD_ROOT_PASSWORD or write it to standard input/);
  const ok = run(['create-root', '--email', 'ops@test.local'], { REDIS_URL: server.url }, 'Strong-password-9\n');
  t.equal(await ok.exited, 0, 'the password is read from standard input');
  t.match(ok.out(), /root account ops@test.local is in place/);
  const fromEnv = run(['create-root', '--email', 'env@test.local'], { REDIS_URL: server.url, RECD_ROOT_PASSWORD: 'Env-password-9' });
  t.equal(await fromEnv.exited, 0, 'or from RECD_ROOT_PASSWORD');
  const port = await freePort();
  const proc = run(['serve'], { PORT: String(port), REDIS_URL: server.url });
  await until('start', () => proc.out().includes('recd listening'));
  const login = await new Api(`http://127.0.0.1:${port}/v1`).post('login/root/', {
    email: 'ops@test.local',
    password: 'Strong-password-9',
  });
  t.equal(login.status, 200);
  t.equal(login.body.role, 'root');
  const second = await new Api(`http://127.0.0.1:${port}/v1`).post('login/root/', { email: 'env@test.local', password: 'Env-password-9' });
  t.equal(second.status, 200, 'the root account from RECD_ROOT_PASSWORD logs in');
  proc.child.kill('SIGTERM');
  await proc.exited;
});
