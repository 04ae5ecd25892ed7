// Row indices of a model: numeric ids in the open-addressing table, others in a Map; the same rows either way.
import t from 'tap';
import { digitsValue, NumericRows, rowIndexOf } from '../../src/engine/model/row-index.js';

t.test('canonical decimal ids parse, anything else does not', async (t) => {
  t.equal(digitsValue('0'), 0);
  t.equal(digitsValue('356'), 356);
  t.equal(digitsValue('4294967295'), 4294967295);
  t.equal(digitsValue('9007199254740991'), Number.MAX_SAFE_INTEGER);
  for (const bad of ['', '007', '-1', '+1', '1.5', '1e3', ' 1', '12a', '9007199254740992', '12345678901234567'])
    t.equal(digitsValue(bad), undefined, JSON.stringify(bad));
});

t.test('numeric ids: every row found, absent and non-canonical keys are not', async (t) => {
  // Dense ids, ids sharing their low bits and ids past 2^32: the table must hold them all apart.
  const ids = [
    ...Array.from({ length: 5000 }, (_, k) => String(k + 1)),
    ...Array.from({ length: 500 }, (_, k) => String((k + 1) * 2 ** 20)),
    ...Array.from({ length: 500 }, (_, k) => String(2 ** 40 + k * 2 ** 32)),
    '',
    '0',
  ];
  const index = await rowIndexOf(ids);
  t.ok(index instanceof NumericRows, 'numeric ids get the numeric table');
  t.equal(index.size, ids.length - 1, "'' is no id");
  let wrong = 0;
  ids.forEach((id, row) => {
    if (id !== '' && index.get(id) !== row) wrong++;
  });
  t.equal(wrong, 0, 'each id finds its row');
  for (const absent of ['5001', '4294967296', '', '01', 'x', String(2 ** 20 * 501)]) t.equal(index.get(absent), undefined, JSON.stringify(absent));
});

t.test('other ids keep a Map with the same answers', async (t) => {
  const ids = ['a', '12', 'b-1', '', '007'];
  const index = await rowIndexOf(ids);
  t.ok(index instanceof Map, 'one non-numeric id: a Map');
  t.same([index.get('a'), index.get('12'), index.get('b-1'), index.get('007'), index.get('7'), index.get('')], [0, 1, 2, 4, undefined, undefined]);
});

t.test('a later row of the same id replaces the earlier one, as in a Map', async (t) => {
  const table = new NumericRows(4);
  table.set('9', 1);
  table.set('9', 3);
  t.equal(table.get('9'), 3);
  t.equal(table.size, 1);
});
