// Filter rules: parsing strings, checking against definitions, and matching stored values.
import t from 'tap';
import { compileFilters, LISTING_OPS, parseFilterString, RECO_OPS } from '../../src/services/catalogue/filters.js';
import type { PropertyDef } from '../../src/store/properties-store.js';

const defs = new Map<string, PropertyDef>(
  [
    { property_name: 'price', value_type: 'float', repeated: false },
    { property_name: 'Genre', value_type: 'unicode16', repeated: true },
    { property_name: 'title', value_type: 'unicode64', repeated: false },
    { property_name: 'sold', value_type: 'bool', repeated: false },
  ].map((d, i) => [d.property_name.toLowerCase(), { ...d, seq: i + 1 }]),
);
// Values keyed by storage sequence; written here by lower-cased name.
const item = (o: Record<string, unknown>) => new Map(Object.entries(o).map(([k, v]) => [defs.get(k)!.seq, v]));
const match = (filters: (string | object)[], values: Map<number, unknown>, ops = LISTING_OPS) =>
  compileFilters(filters as never, defs, ops)(values);

t.test('filter strings', async (t) => {
  t.same(parseFilterString('price:gt:5'), { property_name: 'price', op: 'gt', value: '5' });
  t.same(parseFilterString('title:eq:a:b'), { property_name: 'title', op: 'eq', value: 'a:b' }, 'the value keeps its colons');
  t.same(parseFilterString('price:notempty'), { property_name: 'price', op: 'notempty' });
  t.throws(() => parseFilterString('price'), { name: 'ApiError' } as { name: string });
  t.throws(() => parseFilterString(':eq:1'), { name: 'ApiError' } as { name: string });
});

t.test('ordered ops on numbers, from strings and objects alike', async (t) => {
  const v = item({ price: 10 });
  t.ok(match(['price:gt:5'], v));
  t.notOk(match(['price:lt:10'], v));
  t.ok(match(['price:lte:10', 'price:gte:10'], v));
  t.ok(match([{ property_name: 'PRICE', op: 'EQ', value: 10 }], v), 'names and ops are case-insensitive');
  t.ok(match(['price:in:1,10,20'], v));
  t.ok(match(['price:notin:1,2'], v));
  t.notOk(match(['price:gt:5'], item({})), 'a missing value matches no comparison');
  t.ok(match(['price:neq:5'], item({})), 'but does match neq');
});

t.test('repeated properties match when any value does', async (t) => {
  const v = item({ genre: ['drama', 'war'] });
  t.ok(match(['genre:eq:war'], v));
  t.notOk(match(['genre:neq:war'], v));
  t.ok(match(['genre:in:comedy,drama'], v));
  t.notOk(match(['genre:notin:comedy,drama'], v));
  t.ok(match(['genre:empty'], item({ genre: [] })));
  t.ok(match(['genre:empty'], item({})));
  t.notOk(match(['genre:notempty'], item({ genre: [] })));
});

t.test('ftsearch: every word, case-insensitive', async (t) => {
  const v = item({ title: 'The Great Escape' });
  t.ok(match(['title:ftsearch:great escape'], v));
  t.ok(match(['title:ftsearch:GREAT'], v));
  t.notOk(match(['title:ftsearch:great dictator'], v));
});

t.test('booleans from strings', async (t) => {
  t.ok(match(['sold:eq:True'], item({ sold: true })));
  t.ok(match(['sold:eq:0'], item({ sold: false })));
});

t.test('errors: unknown property, op misuse, bad values', async (t) => {
  const err = (filters: (string | object)[], ops = LISTING_OPS) => {
    try {
      match(filters, item({}), ops);
      return undefined;
    } catch (e) {
      return (e as { data: { name: string } }).data.name;
    }
  };
  t.equal(err(['nope:eq:1']), 'ITEM_PROPERTY_NOT_FOUND');
  t.equal(err(['price:like:1']), 'WRONG_DATA_TYPE');
  t.equal(err(['title:lt:a']), 'WRONG_OP_USE');
  t.equal(err(['price:ftsearch:a']), 'WRONG_OP_USE');
  t.equal(err(['price:notempty:1']), 'WRONG_OP_USE');
  t.equal(err([{ property_name: 'price', op: 'eq' }]), 'WRONG_OP_USE');
  t.equal(err([{ property_name: 'price', op: 'in', value: 3 }]), 'WRONG_OP_USE');
  t.equal(err(['price:eq:abc']), 'WRONG_DATA_TYPE');
  t.equal(err(['title:empty'], RECO_OPS), 'WRONG_DATA_TYPE', 'empty is for listings only');
});
