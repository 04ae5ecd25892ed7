// The CSV reading of `recd import`: empty cells are values left out, cells written "" the empty
// string, whatever else the record holds (quoted commas, doubled quotes, CRLF).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { batchesOf, quotedEmptyFields } from '../../src/cli/rows.js';

t.test('positions of the fields written ""', async (t) => {
  t.same([...quotedEmptyFields('a,"",,""\n')], [1, 3]);
  t.same([...quotedEmptyFields('"","a,""b""",""\r\n')], [0, 2]);
  t.same([...quotedEmptyFields('"""",x,"""",""')], [3], 'a field holding one quote is not empty');
  t.same([...quotedEmptyFields('1,,,\n')], []);
});

t.test('rows of a file, with and without telling "" from an empty cell', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'recd-csv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'x.csv');
  writeFileSync(file, 'id,a,b,c\r\n1,"",,"x,""y"""\r\n2,,"",\r\n3,p,q,r\r\n');
  const read = async (emptyStrings: boolean) => {
    const rows = [];
    for await (const batch of batchesOf(file, 2, emptyStrings)) rows.push(...batch);
    return rows;
  };
  t.same(await read(true), [
    { id: '1', a: '', b: null, c: 'x,"y"' },
    { id: '2', a: null, b: '', c: null },
    { id: '3', a: 'p', b: 'q', c: 'r' },
  ]);
  t.same(await read(false), [
    { id: '1', a: '', b: '', c: 'x,"y"' },
    { id: '2', a: '', b: '', c: '' },
    { id: '3', a: 'p', b: 'q', c: 'r' },
  ]);
});
