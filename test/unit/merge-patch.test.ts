// mergePatch: RFC 7396's examples (appendix A), and `preserve` appending arrays.
import t from 'tap';
import { mergePatch } from '../../src/services/merge-patch.js';

t.test("RFC 7396's examples", async (t) => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, want] of cases)
    t.same(mergePatch(target, patch), want, `${JSON.stringify(target)} + ${JSON.stringify(patch)}`);
});

t.test('preserve appends arrays to arrays, at any depth; the rest merges as without it', async (t) => {
  t.same(mergePatch({ a: [1], b: { c: ['x'] }, d: 'e' }, { a: [2, 3], b: { c: ['y'] }, d: null }, true), {
    a: [1, 2, 3],
    b: { c: ['x', 'y'] },
  });
  t.same(mergePatch({ a: 'x' }, { a: [1] }, true), { a: [1] }, 'an array onto a non-array replaces it');
  t.same(mergePatch({ a: [1] }, { a: [2] }), { a: [2] }, 'without preserve arrays replace');
});

t.test('inputs are untouched; __proto__ is an ordinary key', async (t) => {
  const target = { a: { b: 1 } };
  const patch = JSON.parse('{"a": {"c": 2}, "__proto__": {"polluted": true}}');
  const out = mergePatch(target, patch) as Record<string, unknown>;
  t.same(target, { a: { b: 1 } }, 'target unchanged');
  t.same(Object.keys(out), ['a', '__proto__']);
  t.equal(Object.getPrototypeOf(out), Object.prototype, 'the prototype is not replaced');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.same(JSON.parse(JSON.stringify(out)), JSON.parse('{"a": {"b": 1, "c": 2}, "__proto__": {"polluted": true}}'));
});
