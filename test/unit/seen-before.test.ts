// SeenBefore (services/reco/seen-before.ts): a key counts as seen from its second ask on, while the
// table still remembers it; keys that take its slot make it forgotten, so it counts as new again.
import t from 'tap';
import { SeenBefore } from '../../src/services/reco/seen-before.js';

t.test('a key is new on its first ask and seen on the next ones', async (t) => {
  const seen = new SeenBefore(8);
  t.equal(seen.check('s1,2,3:4,5,5'), false);
  t.equal(seen.check('s1,2,3:4,5,5'), true);
  t.equal(seen.check('s1,2,3:4,5,5'), true);
  t.equal(seen.check('s1,2,3:4,5,4'), false, 'another key is new');
});

t.test('distinct keys spread over the slots: most of a table-full are remembered', async (t) => {
  const seen = new SeenBefore(12);
  const keys = Array.from({ length: 1000 }, (_, k) => `s${k},${k + 1}:5,5`);
  for (const k of keys) t.equal(seen.check(k), false, 'first ask');
  const remembered = keys.filter((k) => seen.check(k)).length;
  // A key is still remembered when no other of the 1,000 took its slot: with hashes spread evenly
  // over 4,096 slots, e^(−999/4096) ≈ 78 % of them (keys alike but for a digit or two all
  // landing in a few slots would leave almost none).
  t.ok(remembered > 720 && remembered < 840, `${remembered} of 1000 remembered`);
});

t.test('keys filling the table push the old ones out: the old key is new again', async (t) => {
  const seen = new SeenBefore(4);
  seen.check('old');
  for (let k = 0; k < 200; k++) seen.check(`other ${k}`);
  t.equal(seen.check('old'), false);
  t.equal(seen.check('old'), true);
});
