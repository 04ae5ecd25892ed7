// `recd import` and `recd export` against a running recd: ratings from CSV in several batches with
// bad rows rejected (each named with the server's reason) and the rest written; interactions from
// Parquet; exports to CSV and Parquet that import again into the same rows; a wrong token stops the
// run with exit code 1; a malformed CSV names its line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import t from 'tap';
import { BATCH_ROWS } from '../../src/cli/import.js';
import { freshDatabase, uid, walkPages } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { run } from '../helpers/cli.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const dir = mkdtempSync(join(tmpdir(), 'recd-import-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('ratings from CSV: several batches, bad rows rejected with reasons, the rest written', async (t) => {
  const { token } = await freshDatabase(api, root);
  const n = BATCH_ROWS + 2500;
  const bad = new Map([
    [3, 'rating 11'],
    [BATCH_ROWS + 7, 'rating abc'],
    [BATCH_ROWS + 8, 'user id'],
  ]);
  const lines = ['user_id,item_id,rating,timestamp'];
  for (let r = 1; r <= n; r++) {
    const user = bad.get(r) === 'user id' ? 'not-a-uuid' : uid(1 + (r % 100));
    const rating = bad.get(r) === 'rating 11' ? '11' : bad.get(r) === 'rating abc' ? 'abc' : String(1 + (r % 10));
    lines.push(`${user},${r},${rating},${r % 3 === 0 ? '' : 1_700_000_000 + r}`);
  }
  const file = join(dir, 'ratings.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const proc = run(['import', 'ratings', file, '--url', `${api.base}`], { RECD_TOKEN: token });
  t.equal(await proc.exited, 0, 'a run with rejected rows still exits 0');
  t.match(proc.out(), new RegExp(`${n - 3} rows written, 3 rejected, in [\\d.]+ s \\(\\d+ rows/s\\)`));
  t.match(proc.out(), /rejected 2 × WRONG_DATA_TYPE rating:\n {4}row 3: .*11.*\n {4}row 10007: .*"abc"/);
  t.match(proc.out(), /rejected 1 × \w+ user_id:\n {4}row 10008: /);
  const { rows } = await walkPages(api, token, 'ratings-bulk/', 'ratings', { amt: 16384 });
  t.equal(rows.length, n - 3, 'every good row stored');
  const item5 = rows.find((x: { item_id: number }) => x.item_id === 5);
  t.same([item5.user_id, item5.rating, item5.timestamp], [uid(6), 6, 1_700_000_005], 'values as in the file');
});

t.test('interactions from Parquet', async (t) => {
  const { token } = await freshDatabase(api, root);
  const file = join(dir, 'interactions.parquet');
  const n = 1200;
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: 'user_id', data: Array.from({ length: n }, (_, i) => uid(1 + (i % 7))), type: 'STRING' },
      { name: 'item_id', data: Int32Array.from({ length: n }, (_, i) => i + 1), type: 'INT32' },
      { name: 'interaction_type', data: Array.from({ length: n }, (_, i) => (i % 2 ? 'purchase' : 'detail_view')), type: 'STRING' },
      { name: 'timestamp', data: Float64Array.from({ length: n }, (_, i) => 1_700_000_000 + i), type: 'DOUBLE' },
    ],
  });
  const proc = run(['import', 'interactions', file, '--url', api.base], { RECD_TOKEN: token });
  t.equal(await proc.exited, 0, proc.out());
  t.match(proc.out(), `${n} rows written, 0 rejected`);
  const { rows } = await walkPages(api, token, 'interactions-bulk/', 'interactions', { amt: 500 });
  t.equal(rows.length, n);
});

t.test('export to CSV and Parquet, and import again: the same ratings', async (t) => {
  const { token } = await freshDatabase(api, root);
  const n = 20_000; // more than one listing page (16,384)
  const ratings = Array.from({ length: n }, (_, r) => ({
    user_id: uid(1 + (r % 300)),
    item_id: r + 1,
    rating: 1 + (r % 19) / 2,
    timestamp: 1_700_000_000.5 + r,
  }));
  t.equal((await api.put('ratings-bulk/', { ratings }, { token })).status, 200);
  const sorted = (rows: any[]) => rows.map((x) => [x.user_id, x.item_id, x.rating, x.timestamp]).sort((a, b) => a[1] - b[1]);
  for (const format of ['csv', 'parquet']) {
    const file = join(dir, `export.${format}`);
    const out = run(['export', 'ratings', file, '--url', api.base], { RECD_TOKEN: token });
    t.equal(await out.exited, 0, out.out());
    t.match(out.out(), `${file}: ${n} ratings written`);
    if (format === 'csv')
      t.equal(readFileSync(file, 'utf8').split('\n')[0], 'user_id,item_id,rating,timestamp', 'a header of the API fields');
    const again = await freshDatabase(api, root);
    const back = run(['import', 'ratings', file, '--url', api.base], { RECD_TOKEN: again.token });
    t.equal(await back.exited, 0, back.out());
    t.match(back.out(), `${n} rows written, 0 rejected`);
    const { rows } = await walkPages(api, again.token, 'ratings-bulk/', 'ratings', { amt: 16384 });
    t.same(sorted(rows), sorted(ratings), `${format}: the same ratings after the round trip`);
  }
});

t.test('a run that cannot go on exits 1 saying why; a wrong command line exits 2', async (t) => {
  const file = join(dir, 'few.csv');
  writeFileSync(file, `user_id,item_id,rating\n${uid(1)},1,5\n`);
  const wrongToken = run(['import', 'ratings', file, '--url', api.base], { RECD_TOKEN: 'nonsense' });
  t.equal(await wrongToken.exited, 1);
  t.match(wrongToken.out(), /recd: PUT \/v1\/ratings-bulk\/: 401 /);
  const wrongExport = run(['export', 'ratings', join(dir, 'out.csv'), '--url', api.base], { RECD_TOKEN: 'nonsense' });
  t.equal(await wrongExport.exited, 1);
  t.match(wrongExport.out(), /recd: GET \/v1\/ratings-bulk\/: 401 /);
  const { token } = await freshDatabase(api, root);
  const ragged = join(dir, 'ragged.csv');
  writeFileSync(ragged, `user_id,item_id,rating\n${uid(1)},1,5\n${uid(1)},2\n`);
  const broken = run(['import', 'ratings', ragged, '--url', api.base], { RECD_TOKEN: token });
  t.equal(await broken.exited, 1);
  t.match(broken.out(), /recd: .*ragged\.csv: .*line 3/);
  const noToken = run(['import', 'ratings', file, '--url', api.base], {});
  t.equal(await noToken.exited, 2);
  t.match(noToken.out(), /no token: set RECD_TOKEN/);
  const kind = run(['import', 'likes', file], { RECD_TOKEN: token });
  t.equal(await kind.exited, 2);
  t.match(kind.out(), /usage: recd import ratings\|interactions\|items\|users FILE/);
  const format = run(['import', 'ratings', join(dir, 'x.json')], { RECD_TOKEN: token });
  t.equal(await format.exited, 2);
  t.match(format.out(), /must end in \.csv or \.parquet/);
});
