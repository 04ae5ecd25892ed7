// SeenBefore (services/reco/request/seen-before.ts): a session's ratings count as seen from their second ask
// on, while the table still remembers them; ratings that take their slot make them forgotten, so
// they count as new again.
import t from 'tap';
import { SeenBefore } from '../../src/services/reco/request/seen-before.js';

t.test('ratings are new on their first ask and seen on the next ones', async (t) => {
  const seen = new SeenBefore(8);
  t.equal(seen.check([1, 2, 3], [4, 5, 5]), false);
  t.equal(seen.check([1, 2, 3], [4, 5, 5]), true);
  t.equal(seen.check([1, 2, 3], [4, 5, 5]), true);
  t.equal(seen.check([1, 2, 3], [4, 5, 4]), false, 'another value is new');
  t.equal(seen.check([1, 2, 3], [4, 5, 4.5]), false, 'a fractional value is another value');
  t.equal(seen.check([1, 3, 2], [4, 5, 4.5]), false, 'rows in another order are new');
  t.equal(seen.check([1, 2], [3, 4, 5, 4.5]), false, 'rows and values split elsewhere are new');
});

t.test('distinct ratings spread over the slots: most of a table-full are remembered', async (t) => {
  const seen = new SeenBefore(12);
  const asked = Array.from(
    { length: 1000 },
    (_, k) =>
      [
        [k, k + 1],
        [5, 5],
      ] as const,
  );
  for (const [items, values] of asked) t.equal(seen.check(items, values), false, 'first ask');
  const remembered = asked.filter(([items, values]) => seen.check(items, values)).length;
  // Ratings are still remembered when no other of the 1,000 took their slot: with hashes spread
  // evenly over 4,096 slots, e^(−999/4096) ≈ 78 % of them (ratings alike but for a row or two all
  // landing in a few slots would leave almost none).
  t.ok(remembered > 720 && remembered < 840, `${remembered} of 1000 remembered`);
});

t.test('ratings alike but for their last value spread too', async (t) => {
  const seen = new SeenBefore(12);
  const asked = Array.from(
    { length: 1000 },
    (_, k) =>
      [
        [7, 8, 9],
        [5, 5, 1 + k / 100],
      ] as const,
  );
  for (const [items, values] of asked) seen.check(items, values);
  const remembered = asked.filter(([items, values]) => seen.check(items, values)).length;
  t.ok(remembered > 720 && remembered < 840, `${remembered} of 1000 remembered`);
});

t.test('ratings filling the table push the old ones out: the old ones are new again', async (t) => {
  const seen = new SeenBefore(4);
  seen.check([1], [1]);
  for (let k = 0; k < 200; k++) seen.check([k + 2, k], [1, 2]);
  t.equal(seen.check([1], [1]), false);
  t.equal(seen.check([1], [1]), true);
});
