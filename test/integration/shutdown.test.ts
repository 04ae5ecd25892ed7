// A stop is bounded whatever Redis does: SIGTERM while Redis is stopped (every command fails) or
// stalled (SIGSTOP: every command waits) ends recd within RECD_SHUTDOWN_SECONDS, a supervisor within
// 5 s more, what could not be written abandoned (training runs are then found by their lease:
// training-lease.test.ts). recd runs as a separate process.
import { rmSync } from 'node:fs';
import t from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { alive, logLines, run, until } from '../helpers/cli.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from '../helpers/stack.js';

const SHUTDOWN_SECONDS = 3;

for (const [outage, workers] of [
  ['stopped', 1],
  ['stalled', 1],
  ['stalled', 2],
] as const) {
  t.test(`SIGTERM while Redis is ${outage}, ${workers} worker(s): recd exits within the bound`, async (t) => {
    const { server, dir } = await startRedis();
    t.teardown(async () => {
      if (outage === 'stalled') process.kill(server.pid, 'SIGCONT');
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    const port = await freePort();
    const proc = run(['serve', '--workers', String(workers)], {
      PORT: String(port),
      REDIS_URL: server.url,
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
      RECD_SHUTDOWN_SECONDS: String(SHUTDOWN_SECONDS),
    });
    t.teardown(() => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    });
    await until('start', () => proc.out().includes('recd listening'));
    const pids =
      workers > 1
        ? logLines(proc.out())
            .filter((l) => l.msg === 'worker listening')
            .map((l) => l.pid as number)
        : [proc.child.pid!];
    const api = new Api(`http://127.0.0.1:${port}/v1`);
    const token = (await api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).body.token as string;
    t.equal(
      (await api.post('databases/', { name: 'd', description: '', item_id_type: 'uint32', user_id_type: 'uint32' }, { token })).status,
      200,
    );
    if (outage === 'stopped') await server.stop();
    else process.kill(server.pid, 'SIGSTOP');
    // A request that needs Redis, in flight when the signal lands.
    const pending = api.get('databases/', { token }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    const sent = Date.now();
    proc.child.kill('SIGTERM');
    const code = await proc.exited;
    const seconds = (Date.now() - sent) / 1000;
    const bound = SHUTDOWN_SECONDS + (workers > 1 ? 5 : 0);
    // A second for the process to start and stop its timers; the bound itself is what is tested.
    t.ok(seconds < bound + 1, `exited in ${seconds.toFixed(1)} s (bound ${bound} s)`);
    if (outage === 'stalled') t.equal(code, 1, 'cut short: exit code 1');
    t.notOk(pids.some(alive), 'no recd process left');
    await pending;
  });
}
