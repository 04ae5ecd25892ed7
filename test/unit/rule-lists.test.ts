// Rule lists: a request's list of strings is swapped for one shared list per text (frozen, keyed
// once), lists of objects pass as they are, and every empty list has the same key.
import t from 'tap';
import { listKey, sharedList } from '../../src/services/reco/request/rule-lists.js';

t.test('equal lists of strings share one frozen list, keyed by their text', async (t) => {
  const a = sharedList(['genre:eq:Drama', 'year:gte:1990'])!;
  const b = sharedList(['genre:eq:Drama', 'year:gte:1990'])!;
  t.equal(a, b, 'the same object for the same strings');
  t.ok(Object.isFrozen(a), 'frozen: it serves every request that asks for it');
  t.strictSame(a, ['genre:eq:Drama', 'year:gte:1990']);
  t.equal(listKey(a), JSON.stringify(['genre:eq:Drama', 'year:gte:1990']));
  t.not(sharedList(['year:gte:1990', 'genre:eq:Drama']), a, 'another order is another list');
  t.not(sharedList(['a,b']), sharedList(['a', 'b']), 'texts that join alike stay apart');
});

t.test('other lists pass as they are; empty lists share a key', async (t) => {
  const objects = [{ property_name: 'genre', op: 'eq', value: 'b' }];
  t.equal(sharedList(objects), objects, 'a list of objects is not shared');
  t.equal(sharedList(undefined), undefined);
  const empty: string[] = [];
  t.equal(sharedList(empty), empty);
  t.equal(listKey([]), '[]');
  t.equal(listKey(objects), JSON.stringify(objects), 'any list is keyed by its text');
});

t.test('past the bound lists are shared anew, each with its own strings', async (t) => {
  const first = sharedList(['a', 'b'])!;
  const wrong: number[] = [];
  // 1,500 lists of over 4,000 characters each: past the bound (4M characters) at least once.
  for (let i = 0; i < 1500; i++) {
    const list = [`p${i}:eq:${'x'.repeat(4000)}${i}`, 'genre:eq:b'];
    const got = sharedList(list)!;
    if (JSON.stringify(got) !== JSON.stringify(list) || listKey(got) !== JSON.stringify(list)) wrong.push(i);
  }
  t.strictSame(wrong, [], '1,500 distinct long lists, each shared as itself');
  const again = sharedList(['a', 'b'])!;
  t.strictSame(again, first, 'the same strings (in a list made anew once the map started again)');
  t.equal(sharedList(['a', 'b']), again, 'and shared again from then on');
});

t.test("a frozen list (a kept query's) is shared, its text made once", async (t) => {
  const kept = Object.freeze(['genre:eq:Drama', 'year:gte:1995']) as unknown as string[];
  const first = sharedList(kept)!;
  t.equal(first, sharedList(['genre:eq:Drama', 'year:gte:1995']), 'the shared list of its strings');
  t.not(first, kept, 'a copy, keyed by its text');
  t.equal(sharedList(kept), first, 'the same shared list again');
  const objects = Object.freeze([{ property_name: 'genre', op: 'eq', value: 'b' }]) as unknown as object[];
  t.equal(sharedList(objects), objects, 'a frozen list of objects still passes as it is');
});
