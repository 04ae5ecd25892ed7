// Who serves a port and who gets the root account: a second recd on a port another recd serves is
// refused (uWebSockets.js's SO_REUSEPORT once let both serve it, alternately); the generated root
// account is made only once the port is recd's (a start that failed to listen once kept an account
// whose password nobody saw); it is generated on any Redis, REDIS_URL's too (compose once got none);
// `recd create-root` on a taken e-mail says how to reset, and --reset ends the old sessions.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import t, { type Test } from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { run, until, type Proc } from '../helpers/cli.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from '../helpers/stack.js';

const PASSWORD_LINE = /password: (\S+)/;

// A private redis-server, gone when `t` ends.
async function redisFor(t: Test): Promise<string> {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return server.url;
}

// `recd serve` stopped when `t` ends; resolves once it listens.
async function serve(t: Test, args: string[], env: Record<string, string>): Promise<Proc> {
  const proc = run(['serve', ...args], env);
  t.teardown(async () => {
    proc.child.kill('SIGTERM');
    await proc.exited;
  });
  await until('recd listening', () => proc.out().includes('recd listening'));
  return proc;
}

// A start that must fail: its output once it exited, or stopped once it said it listens.
async function refusedStart(t: Test, args: string[], env: Record<string, string>, what: string): Promise<string> {
  const proc = run(['serve', ...args], env);
  let code: number | null | undefined;
  void proc.exited.then((c) => (code = c));
  await until(`${what}: an exit or a listen`, () => code !== undefined || proc.out().includes('recd listening'), 60_000);
  if (code === undefined) {
    proc.child.kill('SIGTERM');
    await proc.exited;
    t.fail(`${what}: it started`);
  } else t.not(code, 0, `${what}: a non-zero exit code`);
  return proc.out();
}

t.test('a second recd on a port a recd serves is refused, one process or several', async (t) => {
  const port = await freePort();
  const first = await serve(t, ['--workers', '1'], {
    PORT: String(port),
    REDIS_URL: await redisFor(t),
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  });
  const other = {
    PORT: String(port),
    REDIS_URL: await redisFor(t),
    RECD_ROOT_EMAIL: 'other@test.local',
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  };
  for (const workers of ['1', '2']) {
    const out = await refusedStart(t, ['--workers', workers], other, `--workers ${workers}`);
    t.match(
      out,
      new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: another program \\(another recd, perhaps\\) listens on that port`),
      `--workers ${workers}: says why`,
    );
    t.notMatch(out, /recd listening/);
  }
  const api = new Api(`http://127.0.0.1:${port}/v1`);
  for (let k = 0; k < 6; k++)
    t.equal(
      (await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status,
      200,
      'the first recd answers every request',
    );
  t.ok(first.child.exitCode === null, 'the first recd still runs');
});

t.test('the generated root is made once the port is recd’s: a start on a taken port loses no password', async (t) => {
  const redisUrl = await redisFor(t);
  const holder = createServer();
  const port = await freePort();
  await new Promise<void>((res) => holder.listen(port, '127.0.0.1', res));
  for (const workers of ['1', '2']) {
    const out = await refusedStart(
      t,
      ['--workers', workers],
      { PORT: String(port), REDIS_URL: redisUrl },
      `--workers ${workers} on a port another program holds`,
    );
    t.match(out, /cannot listen on/, `--workers ${workers}: says why`);
    t.notMatch(out, PASSWORD_LINE, `--workers ${workers}: no password shown`);
  }
  await new Promise((res) => holder.close(res));
  const proc = await serve(t, ['--workers', '1'], { PORT: String(port), REDIS_URL: redisUrl });
  const password = PASSWORD_LINE.exec(proc.out())?.[1];
  t.ok(password, 'the start that listens generates the root account and shows it');
  const login = await new Api(`http://127.0.0.1:${port}/v1`).post('login/root/', { email: 'root@localhost', password });
  t.equal(login.status, 200, 'its password works');
});

t.test('with REDIS_URL and no RECD_ROOT_*, workers get a root account shown once; their port is refused to another recd', async (t) => {
  const redisUrl = await redisFor(t);
  const port = await freePort();
  const first = await serve(t, ['--workers', '2'], { PORT: String(port), REDIS_URL: redisUrl });
  t.equal(first.out().match(/password: /g)?.length, 1, 'shown once');
  const password = PASSWORD_LINE.exec(first.out())![1]!;
  const api = new Api(`http://127.0.0.1:${port}/v1`);
  t.equal((await api.post('login/root/', { email: 'root@localhost', password })).status, 200, 'the password works');
  const out = await refusedStart(
    t,
    ['--workers', '1'],
    { PORT: String(port), REDIS_URL: await redisFor(t), RECD_ROOT_EMAIL: ROOT_EMAIL, RECD_ROOT_PASSWORD: ROOT_PASSWORD },
    'a lone recd on the workers’ port',
  );
  t.match(out, /cannot listen on/, 'says why');
  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0);
  const again = await serve(t, ['--workers', '1'], { PORT: String(port), REDIS_URL: redisUrl });
  t.notMatch(again.out(), /password: /, 'not generated again on the next start');
  t.equal((await api.post('login/root/', { email: 'root@localhost', password })).status, 200, 'the account is kept');
});

t.test('recd create-root on a taken e-mail changes nothing and says how to reset; --reset ends the old sessions', async (t) => {
  const redisUrl = await redisFor(t);
  const port = await freePort();
  await serve(t, ['--workers', '1'], {
    PORT: String(port),
    REDIS_URL: redisUrl,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  });
  const api = new Api(`http://127.0.0.1:${port}/v1`);
  const before = await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD });
  t.equal(before.status, 200);

  const again = run(['create-root', '--email', ROOT_EMAIL], { REDIS_URL: redisUrl, RECD_ROOT_PASSWORD: 'Other-password-2' });
  t.equal(await again.exited, 1, 'a taken e-mail: exit code 1');
  t.match(
    again.out(),
    new RegExp(`an account ${ROOT_EMAIL} already exists: its password is unchanged.*recd create-root --email ${ROOT_EMAIL} --reset`),
  );
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status, 200, 'the old password still works');
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: 'Other-password-2' })).status, 401, 'the new one does not');

  const reset = run(['create-root', '--email', ROOT_EMAIL, '--reset'], { REDIS_URL: redisUrl }, 'New-password-3\n');
  t.equal(await reset.exited, 0, '--reset: exit code 0');
  t.match(reset.out(), /has a new password; its earlier sessions are ended/);
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).status, 401, 'the old password is refused');
  t.equal((await api.post('login/root/', { email: ROOT_EMAIL, password: 'New-password-3' })).status, 200, 'the new one works');
  await until(
    'the revocation reaches the running recd',
    async () => (await api.get('databases/', { token: before.body.token })).status === 401,
    5000,
  );
  t.pass('a token of the old password is refused by the running recd');
  t.equal((await api.post('login/refresh-token/', { refresh_token: before.body.refresh_token })).status, 401, 'so is its refresh token');

  const unknown = run(['create-root', '--email', 'nobody@test.local', '--reset'], {
    REDIS_URL: redisUrl,
    RECD_ROOT_PASSWORD: 'New-password-3',
  });
  t.equal(await unknown.exited, 1, '--reset of an unknown e-mail fails');
  t.match(unknown.out(), /there is no account "nobody@test.local"/);
});
