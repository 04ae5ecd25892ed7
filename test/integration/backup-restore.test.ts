// Backup and restore of the embedded Redis as the README describes it: with recd running, turn off
// automatic AOF rewrites, wait for none to be in progress, copy data/redis/appendonlydir, turn them
// back on. A new recd started on a data directory holding only that copy gives back every rating.
// recd runs as a separate process, as an operator runs it.
// @tag cluster: also run on a Redis Cluster by `npm run test:cluster` (scripts/cluster-suite.ts).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { Api } from '../helpers/api.js';
import { logLines, run, until } from '../helpers/cli.js';
import { PASSWORD, ROOT_EMAIL, ROOT_PASSWORD } from '../helpers/stack.js';

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'recd-backup-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(t: Test, dataDir: string) {
  const port = await freePort();
  const proc = run(['serve', '--workers', '1'], {
    PORT: String(port),
    RECD_DATA_DIR: dataDir,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
  });
  t.teardown(async () => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await proc.exited;
  });
  await until('recd listening', () => proc.out().includes('recd listening') || proc.child.exitCode !== null, 30_000);
  t.ok(proc.out().includes('recd listening'), 'recd started');
  const redisPort = logLines(proc.out()).find((l) => l.msg === 'embedded redis-server started')!.port as number;
  return { proc, api: new Api(`http://127.0.0.1:${port}/v1`), redisPort };
}

const noRewrite = (info: string) => /aof_rewrite_in_progress:0\r?\n/.test(info) && /aof_rewrite_scheduled:0\r?\n/.test(info);

interface Rating {
  user_id: number;
  item_id: number;
  rating: number;
  timestamp: number;
}

async function everyRating(api: Api, token: string): Promise<Rating[]> {
  const rows: Rating[] = [];
  let cursor: string | undefined;
  for (;;) {
    const r = await api.get('ratings-bulk/', {
      token,
      query: new URLSearchParams({ amt: '1000', ...(cursor ? { cursor } : {}) }).toString(),
    });
    if (r.status !== 200) throw new Error(`ratings-bulk/: ${r.status} ${r.text}`);
    rows.push(...(r.body.ratings as Rating[]));
    if (!r.body.has_next) return rows;
    cursor = r.body.next_cursor;
  }
}

const sorted = (rows: Rating[]) =>
  [...rows]
    .map(({ user_id, item_id, rating, timestamp }) => ({ user_id, item_id, rating, timestamp }))
    .sort((a, b) => a.user_id - b.user_id || a.item_id - b.item_id);

t.test('a copy of the AOF directory taken while recd runs restores every rating', async (t) => {
  const live = tempDir(t);
  const first = await serve(t, live);
  const root = (await first.api.post('login/root/', { email: ROOT_EMAIL, password: ROOT_PASSWORD })).body.token as string;
  const db = await first.api.post(
    'databases/',
    { name: 'kept', description: '', item_id_type: 'uint32', user_id_type: 'uint32' },
    { token: root },
  );
  t.equal(db.status, 200);
  const email = 'backend@test.local';
  t.equal((await first.api.post('accounts/individual/', { email, role: 'backend', password: PASSWORD }, { token: root })).status, 200);
  const login = async (api: Api) =>
    (await api.post('login/individual/', { email, password: PASSWORD, db_id: db.body.id })).body.token as string;
  const token = await login(first.api);
  const ratings: Rating[] = [];
  for (let u = 1; u <= 40; u++)
    for (let i = 1; i <= 25; i++)
      ratings.push({
        user_id: u,
        item_id: 1 + ((u * 7 + i * 13) % 500),
        rating: 1 + ((u + i) % 10),
        timestamp: 1_700_000_000 + u * 100 + i,
      });
  for (let k = 0; k < ratings.length; k += 200) {
    const r = await first.api.put('ratings-bulk/', { ratings: ratings.slice(k, k + 200) }, { token });
    t.equal(r.status, 200, `batch ${k / 200 + 1} written: ${r.text.slice(0, 300)}`);
  }
  // A rewrite compacts the AOF into a new base file: the copy must hold a base and increments alike.
  const redis = new Redis({ port: first.redisPort, lazyConnect: true });
  t.teardown(() => redis.disconnect());
  await redis.connect();
  await redis.bgrewriteaof();
  await until('AOF rewrite finished', async () => noRewrite(await redis.info('persistence')));
  const more = ratings.slice(0, 50).map((r) => ({ ...r, rating: 11 - r.rating, timestamp: r.timestamp + 1 }));
  t.equal((await first.api.put('ratings-bulk/', { ratings: more }, { token })).status, 200, 'replaced after the rewrite');
  const want = sorted([...more, ...ratings.slice(50)]);

  // The backup, as the README gives it.
  await redis.config('SET', 'auto-aof-rewrite-percentage', '0');
  await until('no AOF rewrite in progress', async () => noRewrite(await redis.info('persistence')));
  const backup = tempDir(t);
  cpSync(join(live, 'redis', 'appendonlydir'), join(backup, 'appendonlydir'), { recursive: true });
  await redis.config('SET', 'auto-aof-rewrite-percentage', '100');
  t.same(sorted(await everyRating(first.api, token)), want, 'the running recd holds every rating');

  // The restore: a new data directory holding only the copy.
  const restored = tempDir(t);
  mkdirSync(join(restored, 'redis'));
  cpSync(join(backup, 'appendonlydir'), join(restored, 'redis', 'appendonlydir'), { recursive: true });
  t.notOk(existsSync(join(restored, 'redis', 'dump.rdb')), 'nothing but the AOF copy');
  const second = await serve(t, restored);
  const back = sorted(await everyRating(second.api, await login(second.api)));
  t.equal(back.length, want.length, 'as many ratings');
  t.same(back, want, 'every rating, with its value and time');
});
