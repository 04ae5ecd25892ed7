// A session's ratings as a profile (src/services/reco/request/session-input.ts): each item's last rating, in
// the order items first appear, rows of the model only, and as count every distinct item given (those
// the model lacks too): what a Map of id → rating gives, for sessions of few items (searched
// linearly) and of many (past LINEAR_ROWS), with items given twice and ids the model lacks.
import t from 'tap';
import type { Claims } from '../../src/contract/claims.js';
import type { LoadedModel } from '../../src/engine/model/registry.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { SessionInputs } from '../../src/services/reco/request/session-input.js';
import type { Catalogues } from '../../src/services/catalogue/catalogues.js';
import type { InteractionRuleService } from '../../src/services/feedback/interaction-rules.js';
import type { Profile } from '../../src/services/feedback/profile-cache.js';

const auth = { dbt: ['uint32', 'uint32', 'uint32'] } as unknown as Claims;
// Items 1..300 in the model (rows shuffled), ids 301..400 not.
const rand = mulberry32(16);
const ids = Array.from({ length: 300 }, (_, k) => String(k + 1)).sort(() => rand() - 0.5);
const model = { itemIndex: new Map(ids.map((id, row) => [id, row])) } as unknown as LoadedModel;
const sessions = () => new SessionInputs({} as Catalogues, {} as InteractionRuleService);

// What the Map gives.
function expected(ratings: { item_id: number; rating: number }[]) {
  const given = new Map<string, number>();
  for (const r of ratings) given.set(String(r.item_id), r.rating);
  const items: number[] = [],
    values: number[] = [];
  for (const [key, rating] of given) {
    const row = model.itemIndex.get(key);
    if (row === undefined) continue;
    items.push(row);
    values.push(rating);
  }
  return { items, values, count: given.size };
}

t.test('the same profile as a Map of the ratings', async (t) => {
  for (const n of [0, 1, 5, 20, 31, 32, 33, 40, 64, 200]) {
    for (let trial = 0; trial < 20; trial++) {
      // Few distinct ids for some trials, so items come twice or more.
      const span = trial % 2 === 0 ? 400 : Math.max(1, n >> 1);
      const ratings = Array.from({ length: n }, () => ({
        item_id: 1 + Math.floor(rand() * span) + (trial % 4 === 3 ? 300 - Math.min(span, 300) : 0),
        rating: 1 + Math.floor(rand() * 10),
      }));
      const p = sessions().profile(auth, 'db', model, { ratings }) as Profile;
      const want = expected(ratings);
      t.strictSame({ items: p.items, values: p.values, count: p.count }, want, `${n} ratings, trial ${trial}`);
    }
  }
});

t.test('a session is keyed from the second time its ratings are sent', async (t) => {
  const s = sessions();
  const ratings = [
    { item_id: 3, rating: 4 },
    { item_id: 350, rating: 2 },
    { item_id: 3, rating: 5 },
    { item_id: 9, rating: 1 },
  ];
  const first = s.profile(auth, 'db', model, { ratings }) as Profile;
  const second = s.profile(auth, 'db', model, { ratings }) as Profile;
  t.equal(first.key, undefined);
  t.equal(second.key, `s${model.itemIndex.get('3')},${model.itemIndex.get('9')}:5,1`);
  t.equal(second.count, 3);
});

t.test('errors name the first wrong rating, as before', async (t) => {
  const s = sessions();
  t.throws(() => s.profile(auth, 'db', model, { ratings: [{ item_id: 1, rating: 3 }, 'x', { item_id: 2, rating: 11 }] }), {
    message: 'ratings[1] is not an object',
  });
  t.throws(() => s.profile(auth, 'db', model, { ratings: [{ item_id: 1, rating: 3 }, { item_id: 2, rating: 11 }, 'x'] }), {
    message: 'ratings[1].rating must be a number from 1 to 10',
  });
  t.throws(() => s.profile(auth, 'db', model, { ratings: [{ item_id: -1, rating: 11 }] }), {
    message: /^item_id -1 is not of type uint32/,
  });
});

t.test('interactions: each item once, where it first came, at its rule rating (max keeps the higher, replace the last)', async (t) => {
  const rules = new Map([
    ['view', { rating: 6, combine: 'max' }],
    ['purchase', { rating: 9, combine: 'max' }],
    ['dislike', { rating: 1, combine: 'replace' }],
  ]);
  const s = new SessionInputs({} as Catalogues, { resolve: async () => rules } as unknown as InteractionRuleService);
  const interactions = [
    { item_id: 3, interaction_type: 'purchase' },
    { item_id: 9, interaction_type: 'view' },
    { item_id: 350, interaction_type: 'view' },
    { item_id: 3, interaction_type: 'View' },
    { item_id: 9, interaction_type: 'purchase' },
    { item_id: 5, interaction_type: 'purchase' },
    { item_id: 5, interaction_type: 'dislike' },
  ];
  const p = await s.profile(auth, 'db', model, { interactions });
  const row = (id: number) => model.itemIndex.get(String(id));
  t.strictSame({ items: p.items, values: p.values, count: p.count }, { items: [row(3), row(9), row(5)], values: [9, 9, 1], count: 4 });
  t.equal(p.interactions?.length, 7, 'the interactions as sent');
});
