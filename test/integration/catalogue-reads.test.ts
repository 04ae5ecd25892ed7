// A Catalogue's reads of property definitions and settings, on a real Redis: requests that ask while
// a read is under way share it (a burst at start-up reads once), and one asking after a change of
// what is read never gets a read made before the change.
import t from 'tap';
import { pino } from 'pino';
import { Catalogues } from '../../src/services/catalogue/catalogues.js';
import { ChangeTail } from '../../src/store/change-tail.js';
import { DatabasesStore } from '../../src/store/databases-store.js';
import { EntitiesStore } from '../../src/store/entities-store.js';
import { PropertiesStore } from '../../src/store/properties-store.js';
import { SettingsStore } from '../../src/store/settings-store.js';
import { storeRedis } from '../helpers/stack.js';

const redis = await storeRedis(t, 'catalogue-reads-test');
const db = 'catalogue-reads-db';
await new DatabasesStore(redis).create({
  id: db,
  org: 'o',
  name: db,
  description: '',
  item_id_type: 'int',
  user_id_type: 'int',
  session_id_type: 'uuid',
  status: 'ready',
  metadata: {},
  created: 0,
});

// The real store, with its list reads counted.
class CountedProperties extends PropertiesStore {
  lists = 0;
  override list(...args: Parameters<PropertiesStore['list']>): ReturnType<PropertiesStore['list']> {
    this.lists++;
    return super.list(...args);
  }
}
const properties = new CountedProperties(redis);
const settings = new SettingsStore(redis);
const catalogues = new Catalogues(
  new ChangeTail(redis, pino({ level: 'silent' })),
  new EntitiesStore(redis),
  properties,
  pino({ level: 'silent' }),
);
t.teardown(() => catalogues.stop());

t.test('a burst of requests reads the definitions once', async (t) => {
  const created = await properties.create(db, 'item', { property_name: 'genre', value_type: 'string', repeated: false });
  t.ok(typeof created === 'object', 'the property is created');
  const cat = catalogues.get(db);
  const got = await Promise.all(Array.from({ length: 50 }, () => cat.definitions('item')));
  t.equal(properties.lists, 1, 'one read for 50 requests');
  t.same([...got[0]!.keys()], ['genre']);
  t.ok(
    got.every((d) => d === got[0]),
    'every request got the same definitions',
  );
  t.equal(await cat.definitions('item'), got[0], 'held after the read');
  t.equal(properties.lists, 1);
});

t.test('a definition change during a read: asked after it, read again', async (t) => {
  const cat = catalogues.get(db);
  const change = await properties.create(db, 'item', { property_name: 'year', value_type: 'int16', repeated: false });
  if (typeof change !== 'object') throw new Error(`create: ${change}`);
  // The read under way may predate the change; once the change is handled, a request reads afresh.
  const before = cat.definitions('item');
  await cat.reached(change.change);
  const after = await cat.definitions('item');
  t.same([...after!.keys()], ['genre', 'year'], 'asked after the change: both definitions');
  await before;
});

t.test('a burst of requests reads a setting once, and again after it changes', async (t) => {
  const cat = catalogues.get(db);
  let reads = 0;
  const read = () => {
    reads++;
    return settings.get<{ v: number }>(db, 'interaction-rules');
  };
  const first = await Promise.all(Array.from({ length: 50 }, () => cat.setting('interaction-rules', read)));
  t.equal(reads, 1, 'one read for 50 requests');
  t.ok(
    first.every((v) => v === null),
    'not set yet',
  );
  const change = await settings.replace(db, 'interaction-rules', { v: 2 });
  const racing = cat.setting('interaction-rules', read); // may be answered from before the change
  await cat.reached(change);
  const now = await Promise.all(Array.from({ length: 20 }, () => cat.setting('interaction-rules', read)));
  t.ok(
    now.every((v) => v?.v === 2),
    'asked after the change: the new value',
  );
  t.ok(reads >= 2 && reads <= 3, `read again after the change, once for the burst (${reads} reads)`);
  await racing;
});
