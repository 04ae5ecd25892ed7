// A retrain between searches starts from the last model's factors (engine/training/init-factors.ts):
// the rows the last model covers keep its factors, new rows start as a fresh model's.
import t from 'tap';
import { allocateModel } from '../../src/engine/model/layout.js';
import { initFactors, warmFactors } from '../../src/engine/training/init-factors.js';

const model = (users: number, items: number, factors: number) =>
  allocateModel({ factors, users, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 }).views;

t.test('rows the last model covers start from its factors, new rows from the seeded start', async (t) => {
  const last = model(3, 2, 4);
  last.userFactors.forEach((_, k, a) => (a[k] = 100 + k));
  last.itemFactors.forEach((_, k, a) => (a[k] = 200 + k));
  const next = model(5, 4, 4);
  initFactors(next, 42);
  const fresh = model(5, 4, 4);
  initFactors(fresh, 42);
  t.equal(warmFactors(next, last), true);
  t.same([...next.userFactors.subarray(0, 12)], [...last.userFactors], "the last model's users");
  t.same([...next.userFactors.subarray(12)], [...fresh.userFactors.subarray(12)], 'new users as a fresh model');
  t.same([...next.itemFactors.subarray(0, 8)], [...last.itemFactors], "the last model's items");
  t.same([...next.itemFactors.subarray(8)], [...fresh.itemFactors.subarray(8)], 'new items as a fresh model');
});

t.test('a last model with other factors, or more rows than the new one, is handled', async (t) => {
  const next = model(2, 2, 4);
  initFactors(next, 1);
  const before = Float32Array.from(next.userFactors);
  t.equal(warmFactors(next, model(2, 2, 8)), false, 'other factor counts: no start from it');
  t.same([...next.userFactors], [...before], 'nothing copied');
  const bigger = model(4, 3, 4);
  bigger.userFactors.fill(7);
  t.equal(warmFactors(next, bigger), true);
  t.ok(
    next.userFactors.every((x) => x === 7),
    'only the rows the new model has',
  );
});
