// `recd import items|users` and `recd export items|users` against a running recd: property columns
// of every kind of type (numbers, 64-bit integers, booleans, text with commas and quotes, the empty
// string, lists) from CSV and Parquet; import → export gives back the same file and the same rows;
// bad rows rejected with the server's reasons, the rest written; a column that is no property stops
// the import before anything is sent (exit code 2).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { parquetWriteFile } from 'hyparquet-writer';
import t from 'tap';
import { ENTITY_BATCH_ROWS } from '../../src/cli/import.js';
import { freshDatabase, uid, walkPages } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { run } from '../helpers/cli.js';
import { startStack } from '../helpers/stack.js';

const stack = await startStack({ RECD_TRAINING_POLL_MS: '3600000' });
t.teardown(() => stack.close());
const { api } = stack;
const root = await rootToken(api);
const dir = mkdtempSync(join(tmpdir(), 'recd-import-entities-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const ITEM_PROPERTIES = [
  { property_name: 'price', value_type: 'float' },
  { property_name: 'stock', value_type: 'int32' },
  { property_name: 'Views', value_type: 'uint64' },
  { property_name: 'on_sale', value_type: 'bool' },
  { property_name: 'title', value_type: 'unicode40' },
  { property_name: 'tags', value_type: 'unicode16', repeated: true },
  { property_name: 'sizes', value_type: 'int16', repeated: true },
];
const USER_PROPERTIES = [
  { property_name: 'age', value_type: 'uint8' },
  { property_name: 'country', value_type: 'unicode2' },
  { property_name: 'vip', value_type: 'bool' },
  { property_name: 'weights', value_type: 'float64', repeated: true },
];

async function databaseWith(kind: 'items' | 'users', properties: object[]): Promise<string> {
  const { token } = await freshDatabase(api, root);
  for (const p of properties) {
    const r = await api.post(`${kind}-properties/`, p, { token });
    if (r.status >= 300) throw new Error(`${kind}-properties/: ${r.status} ${r.text}`);
  }
  return token;
}

const listing = async (token: string, kind: 'items' | 'users') =>
  (await walkPages(api, token, `${kind}-bulk/properties/`, kind, { amt: 500 })).rows;
const exitOf = async (args: string[], token: string) => {
  const p = run([...args, '--url', api.base], { RECD_TOKEN: token });
  return { code: await p.exited, out: p.out() };
};

// A CSV cell as csv-stringify writes it: quoted when it holds a comma, a quote or a line break, or is
// the empty string (absent values are unquoted empty cells).
const cell = (v: string | undefined) => (v === undefined ? '' : v === '' || /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

// n items with varied values; every few a value is left out, and some lists are empty.
function itemRows(n: number): (string | undefined)[][] {
  const rows: (string | undefined)[][] = [
    ['1', '0.1', '-5', '9007199254740991', 'true', 'Chair, "Oak" edition', '["wood","a,b"]', '[36,-2]'],
    ['2', '1e+30', '0', '0', 'false', '', '[]', '[]'],
    ['3', undefined, undefined, undefined, undefined, 'Ünïcødé ✓ — 日本', undefined, undefined],
  ];
  for (let i = 4; i <= n; i++) {
    rows.push([
      String(i * 7),
      i % 5 === 0 ? undefined : String(i / 8),
      String(i - 600),
      i % 3 === 0 ? undefined : String(i * 1_000_003),
      String(i % 2 === 0),
      `item ${i}`,
      i % 4 === 0 ? undefined : JSON.stringify([`t${i % 10}`, `u${i % 7}`]),
      JSON.stringify(i % 6 === 0 ? [] : [i % 100, -(i % 50)]),
    ]);
  }
  return rows;
}
const ITEM_HEADER = 'item_id,price,stock,Views,on_sale,title,tags,sizes';

t.test('items: CSV import, export to CSV gives back the same file, to Parquet the same rows', async (t) => {
  const token = await databaseWith('items', ITEM_PROPERTIES);
  const n = ENTITY_BATCH_ROWS + 300; // two batches, three listing pages
  const text = `${[ITEM_HEADER, ...itemRows(n).map((r) => r.map(cell).join(','))].join('\n')}\n`;
  const file = join(dir, 'items.csv');
  writeFileSync(file, text);
  const imported = await exitOf(['import', 'items', file], token);
  t.equal(imported.code, 0, imported.out);
  t.match(imported.out, `${n} rows written, 0 rejected`);

  const stored = await listing(token, 'items');
  t.equal(stored.length, n);
  t.same(
    stored[0],
    {
      item_id: 1,
      price: 0.1,
      stock: -5,
      Views: 9007199254740991,
      on_sale: true,
      title: 'Chair, "Oak" edition',
      tags: ['wood', 'a,b'],
      sizes: [36, -2],
    },
    'values as their types',
  );
  t.same(
    stored[1],
    { item_id: 2, price: 1e30, stock: 0, Views: 0, on_sale: false, title: '', tags: [], sizes: [] },
    'an empty string and empty lists',
  );
  t.same(stored[2], { item_id: 3, title: 'Ünïcødé ✓ — 日本' }, 'empty cells are values left out');

  const csvOut = join(dir, 'items-out.csv');
  const exported = await exitOf(['export', 'items', csvOut], token);
  t.equal(exported.code, 0, exported.out);
  t.match(exported.out, `${csvOut}: ${n} items written`);
  t.equal(readFileSync(csvOut, 'utf8'), text, 'the exported CSV is the imported one');

  const pqOut = join(dir, 'items-out.parquet');
  t.equal((await exitOf(['export', 'items', pqOut], token)).code, 0);
  const again = await databaseWith('items', ITEM_PROPERTIES);
  const back = await exitOf(['import', 'items', pqOut], again);
  t.equal(back.code, 0, back.out);
  t.match(back.out, `${n} rows written, 0 rejected`);
  t.same(await listing(again, 'items'), stored, 'Parquet: the same items after the round trip');
});

t.test('users: Parquet with native columns and LISTs, exported to Parquet and CSV and imported again', async (t) => {
  const token = await databaseWith('users', USER_PROPERTIES);
  const n = 700;
  const users = Array.from({ length: n }, (_, i) => ({
    user_id: uid(i + 1),
    age: i % 9 === 0 ? null : i % 256,
    country: ['de', 'fr', 'jp', ''][i % 4]!,
    vip: i % 11 === 0 ? null : i % 3 === 0,
    weights: i % 5 === 0 ? null : i % 5 === 1 ? [] : [i / 3, -i, 1e-7],
  }));
  const file = join(dir, 'users.parquet');
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: 'user_id', data: users.map((u) => u.user_id) },
      { name: 'age', data: users.map((u) => u.age) },
      { name: 'country', data: users.map((u) => u.country) },
      { name: 'vip', data: users.map((u) => u.vip) },
      { name: 'weights', data: users.map((u) => u.weights) as never },
    ],
    schema: [
      { name: 'root', num_children: 5 },
      { name: 'user_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'age', type: 'INT32', repetition_type: 'OPTIONAL' },
      { name: 'country', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
      { name: 'vip', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
      { name: 'weights', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    ],
  });
  const imported = await exitOf(['import', 'users', file], token);
  t.equal(imported.code, 0, imported.out);
  t.match(imported.out, `${n} rows written, 0 rejected`);
  const stored = await listing(token, 'users');
  const expected = users.map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== null)));
  t.same(stored, expected, 'every user as in the file, nulls left out');

  const pqOut = join(dir, 'users-out.parquet');
  const exported = await exitOf(['export', 'users', pqOut], token);
  t.equal(exported.code, 0, exported.out);
  const buffer = await asyncBufferFromFile(pqOut);
  const metadata = await parquetMetadataAsync(buffer);
  t.same(
    metadata.schema.map((s) => [s.name, s.type ?? null, s.converted_type ?? null]),
    [
      ['root', null, null],
      ['user_id', 'BYTE_ARRAY', 'UTF8'],
      ['age', 'INT32', null],
      ['country', 'BYTE_ARRAY', 'UTF8'],
      ['vip', 'BOOLEAN', null],
      ['weights', null, 'LIST'],
      ['list', null, null],
      ['element', 'DOUBLE', null],
    ],
    'native Parquet types, a repeated property as a LIST',
  );
  t.same(await parquetReadObjects({ file: buffer, metadata }), users, 'the exported Parquet holds the imported rows');

  const csvOut = join(dir, 'users-out.csv');
  t.equal((await exitOf(['export', 'users', csvOut], token)).code, 0);
  t.equal(readFileSync(csvOut, 'utf8').split('\n')[1], `${uid(1)},,de,,`, 'values left out are empty cells');
  const again = await databaseWith('users', USER_PROPERTIES);
  const back = await exitOf(['import', 'users', csvOut], again);
  t.equal(back.code, 0, back.out);
  t.same(await listing(again, 'users'), expected, 'CSV: the same users after the round trip');
});

t.test('bad rows rejected with their reasons, the rest written; an id given twice: the later row wins', async (t) => {
  const token = await databaseWith('items', ITEM_PROPERTIES);
  const lines = [ITEM_HEADER];
  const bad = new Map([
    [5, '5,abc,1,1,true,x,,'], // a price that is no number
    [9, '9,1,99999999999,1,true,x,,'], // stock out of int32
    [12, 'twelve,1,1,1,true,x,,'], // an id that is no uint32
    [14, ',1,1,1,true,x,,'], // no id
    [20, '20,1,1,1,maybe,x,,'], // no bool
    [21, '21,1,1,1,true,x,"[""a""",'], // a list that is no JSON
    [25, '25,0x10,1,1,true,x,,'], // a number that is not decimal
    [30, '30,1,1,1,true,"this title is longer than forty characters, surely",,'],
  ]);
  for (let r = 1; r <= 40; r++) lines.push(bad.get(r) ?? `${r},${r},${r},${r},true,title ${r},,`);
  lines.push('7,7.5,7,7,false,seven again,,'); // row 41: item 7 a second time
  const file = join(dir, 'bad-items.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const proc = await exitOf(['import', 'items', file], token);
  t.equal(proc.code, 0, 'a run with rejected rows still exits 0');
  t.match(proc.out, /: 33 rows written, 8 rejected, in [\d.]+ s/);
  t.match(
    proc.out,
    /rejected 2 × WRONG_DATA_TYPE price:\n {4}row 5: property price of item 5: float takes a finite number.*\n {4}row 25: /,
  );
  t.match(proc.out, /rejected 1 × WRONG_DATA_TYPE title:\n {4}row 30: .*unicode40 takes a string of at most 40 characters/);
  t.match(proc.out, /rejected 1 × WRONG_DATA_TYPE stock:\n {4}row 9: property stock of item 9: int32 takes an integer/);
  t.match(proc.out, /rejected 1 × INCORRECT_ITEM_ID_TYPE item_id:\n {4}row 12: item_id "twelve" is not of type uint32/);
  t.match(proc.out, /rejected 1 × WRONG_DATA_TYPE:\n {4}row 14: row has no item_id/);
  t.match(proc.out, /rejected 1 × WRONG_DATA_TYPE on_sale:\n {4}row 20: .*bool takes true or false/);
  t.match(proc.out, /rejected 1 × WRONG_DATA_TYPE tags:\n {4}row 21: .*takes a list/);
  const stored = await listing(token, 'items');
  t.same(
    stored.map((x: { item_id: number }) => x.item_id).sort((a: number, b: number) => a - b),
    [...Array(40).keys()].map((i) => i + 1).filter((i) => ![5, 9, 12, 14, 20, 21, 25, 30].includes(i)),
  );
  t.same(
    stored.find((x: { item_id: number }) => x.item_id === 7),
    { item_id: 7, price: 7.5, stock: 7, Views: 7, on_sale: false, title: 'seven again' },
    'the later row replaced the earlier',
  );
});

t.test('a database whose properties cannot be the empty string: an empty cell, quoted or not, is a value left out', async (t) => {
  const token = await databaseWith('users', [USER_PROPERTIES[0]!, USER_PROPERTIES[3]!]);
  const file = join(dir, 'numbers.csv');
  writeFileSync(file, `user_id,age,weights\n${uid(1)},,[0.5]\n${uid(2)},"",\n${uid(3)},7,"[]"\n`);
  const imported = await exitOf(['import', 'users', file], token);
  t.equal(imported.code, 0, imported.out);
  t.match(imported.out, '3 rows written, 0 rejected');
  t.same(await listing(token, 'users'), [
    { user_id: uid(1), weights: [0.5] },
    { user_id: uid(2) },
    { user_id: uid(3), age: 7, weights: [] },
  ]);
});

t.test('a column that is no property, or no id column: exit 2 before anything is sent', async (t) => {
  const token = await databaseWith('items', ITEM_PROPERTIES);
  const typo = join(dir, 'typo.csv');
  writeFileSync(typo, 'item_id,price,colour\n1,2,red\n');
  const wrong = await exitOf(['import', 'items', typo], token);
  t.equal(wrong.code, 2);
  t.match(
    wrong.out,
    /typo\.csv: column colour is not item properties of the database \(its item properties: price, stock, Views, on_sale, title, tags, sizes\); nothing was sent/,
  );
  const noId = join(dir, 'no-id.csv');
  writeFileSync(noId, 'PRICE,stock\n');
  const missing = await exitOf(['import', 'items', noId], token);
  t.equal(missing.code, 2);
  t.match(missing.out, /no-id\.csv: no item_id column \(columns: PRICE, stock\)/, 'a header without rows too');
  t.same(await listing(token, 'items'), [], 'nothing stored');
  const users = join(dir, 'users.csv');
  writeFileSync(users, `user_id,age\n${uid(1)},3\n`);
  const noProps = await exitOf(['import', 'users', users], token);
  t.equal(noProps.code, 2);
  t.match(noProps.out, /column age is not user properties of the database \(its user properties: none\)/);
});

t.test('an empty database exports a header only, and a Parquet file of no rows', async (t) => {
  const token = await databaseWith('items', ITEM_PROPERTIES);
  const csv = join(dir, 'empty.csv');
  t.equal((await exitOf(['export', 'items', csv], token)).code, 0);
  t.equal(readFileSync(csv, 'utf8'), `${ITEM_HEADER}\n`);
  const pq = join(dir, 'empty.parquet');
  const out = await exitOf(['export', 'items', pq], token);
  t.equal(out.code, 0, out.out);
  const back = await exitOf(['import', 'items', pq], token);
  t.equal(back.code, 0, back.out);
  t.match(back.out, '0 rows written, 0 rejected');
  const wrongToken = await exitOf(['export', 'users', csv], 'nonsense');
  t.equal(wrongToken.code, 1);
  t.match(wrongToken.out, /recd: GET \/v1\/users-properties\/: 401 /);
});
