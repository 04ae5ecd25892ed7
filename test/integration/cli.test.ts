// The command line's own surface: help, version, exit codes of wrong command lines, and the warning
// for RECD_* variables no setting reads (through a running `recd serve`).
import { readFileSync, rmSync } from 'node:fs';
import t from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { logLines, run, until } from '../helpers/cli.js';
import { startRedis } from '../helpers/stack.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

t.test('--help lists the commands and exit codes; <command> --help its usage', async (t) => {
  for (const args of [['--help'], ['-h'], ['help']]) {
    const help = run(args, {});
    t.equal(await help.exited, 0, `${args[0]} exits 0`);
    t.match(help.out(), /usage: recd \[serve\].*create-root.*exit codes: 0 done, 2 wrong command line, 78 wrong setting, 1 failed/s);
  }
  const serve = run(['serve', '--help'], {});
  t.equal(await serve.exited, 0);
  t.match(serve.out(), /^usage: recd serve \[--workers N\]/);
  t.notMatch(serve.out(), /recd listening/, 'help does not start the service');
  const createRoot = run(['create-root', '--help'], {});
  t.equal(await createRoot.exited, 0);
  t.match(createRoot.out(), /^usage: recd create-root --email EMAIL.*RECD_ROOT_PASSWORD.*standard input/s);
  const topic = run(['help', 'create-root'], {});
  t.equal(await topic.exited, 0);
  t.match(topic.out(), /^usage: recd create-root/);
});

t.test('--version prints the package version', async (t) => {
  const proc = run(['--version'], {});
  t.equal(await proc.exited, 0);
  t.equal(proc.out(), `recd ${pkg.version}\n`);
});

t.test('a wrong command line exits 2 with the usage', async (t) => {
  for (const command of ['serv', 'toString', 'constructor']) {
    const proc = run([command], {});
    t.equal(await proc.exited, 2, `${command}: exit code 2`);
    t.match(proc.out(), new RegExp(`recd: unknown command ${command}\\nusage: recd`));
  }
  const extra = run(['serve', 'now'], {});
  t.equal(await extra.exited, 2);
  t.match(extra.out(), /recd: unexpected argument now; usage: recd serve \[--workers N\]/);
  const noEmail = run(['create-root'], {}, 'Strong-password-9\n');
  t.equal(await noEmail.exited, 2);
  t.match(noEmail.out(), /--email is required; usage: recd create-root --email EMAIL/);
});

t.test('an unknown RECD_ variable is warned about, naming the closest setting, and start-up goes on', async (t) => {
  const { server, dir } = await startRedis();
  t.teardown(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const port = await freePort();
  const proc = run(['serve', '--workers', '2'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_WORKES: '3',
    RECD_JWT_TTL_SECOND: '60',
    RECD_SHUTDOWN_SECONDS: '5',
  });
  t.teardown(() => proc.child.kill('SIGKILL'));
  await until('start', () => proc.out().includes('recd listening'));
  const warnings = logLines(proc.out()).filter((l) => l.msg?.startsWith('unknown setting'));
  t.same(
    warnings.map((w) => [w.level, w.variable, w.closest]),
    [
      [40, 'RECD_JWT_TTL_SECOND', 'RECD_JWT_TTL_SECONDS'],
      [40, 'RECD_WORKES', 'RECD_WORKERS'],
    ],
    'one warning each, from the supervisor only (not from every worker), for no known setting',
  );
  t.match(warnings[1]!.msg, 'unknown setting RECD_WORKES is ignored: did you mean RECD_WORKERS?');
  proc.child.kill('SIGTERM');
  t.equal(await proc.exited, 0);
});
