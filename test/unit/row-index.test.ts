// Row indices of a model: numeric ids in the open-addressing table, others in a Map; the same rows either way.
import t from 'tap';
import { digitsValue, NumericRows, rowIndexOf, rowIndexOfSlices } from '../../src/engine/model/row-index.js';

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
  for (const absent of ['5001', '4294967296', '', '01', 'x', String(2 ** 20 * 501)])
    t.equal(index.get(absent), undefined, JSON.stringify(absent));
});

t.test('other ids keep a Map with the same answers', async (t) => {
  const ids = ['a', '12', 'b-1', '', '007'];
  const index = await rowIndexOf(ids);
  t.ok(index instanceof Map, 'one non-numeric id: a Map');
  t.same(
    [index.get('a'), index.get('12'), index.get('b-1'), index.get('007'), index.get('7'), index.get('')],
    [0, 1, 2, 4, undefined, undefined],
  );
});

t.test('a later row of the same id replaces the earlier one, as in a Map', async (t) => {
  const table = new NumericRows(4);
  table.set('9', 1);
  table.set('9', 3);
  t.equal(table.get('9'), 3);
  t.equal(table.size, 1);
});

t.test('read a slice at a time, the index answers as the one of every id at once', async (t) => {
  const numeric = [...Array.from({ length: 25_000 }, (_, k) => String(3 * k + 1)), '', String(2 ** 40)];
  // The first non-numeric id comes after a slice of numeric ones: those move into the Map.
  const mixed = [...numeric.slice(0, 12_345), 'u-1', ...numeric.slice(12_345), '007'];
  for (const [name, ids] of [
    ['numeric', numeric],
    ['mixed', mixed],
    ['none', []],
  ] as const) {
    const reads: [number, number][] = [];
    const index = await rowIndexOfSlices(ids.length, async (from, to) => (reads.push([from, to]), ids.slice(from, to)), 10_000);
    const whole = await rowIndexOf([...ids]);
    t.equal(index.constructor, whole.constructor, `${name}: ${whole.constructor.name}`);
    t.equal(index.size, whole.size, `${name}: size`);
    t.ok(
      ids.every((id, row) => id === '' || index.get(id) === row),
      `${name}: each id finds its row`,
    );
    t.same([index.get('2'), index.get('3'), index.get('')], [undefined, undefined, undefined], `${name}: absent ids`);
    t.same(
      reads,
      Array.from({ length: Math.ceil(ids.length / 10_000) }, (_, k) => [k * 10_000, Math.min(ids.length, (k + 1) * 10_000)]),
      `${name}: read in slices, in order`,
    );
  }
});
