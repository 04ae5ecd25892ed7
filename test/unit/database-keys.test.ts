// Deleting a database lists its keys from its records (src/store/database-keys.ts): every key keys.ts
// names under a database's hash tag must be one of its fixed keys or of a family listed from records,
// so a key added to keys.ts and forgotten there fails here rather than outliving deleted databases.
import t from 'tap';
import { RECORDED_TASKS as TASK_NAMES } from '../../src/engine/training/scheduler.js';
import { fixedKeys, LISTED_FROM_RECORDS } from '../../src/store/database-keys.js';
import { keys } from '../../src/store/keys.js';

const DB = 'D';
const TAG = `{db:${DB}}`;
// Second arguments the key builders take: a kind of entity or owner, or a task name.
const SECOND = ['item', 'user', 'session', ...TASK_NAMES];

t.test('every database key of keys.ts is fixed or listed from records', async (t) => {
  const fixed = new Set(fixedKeys(DB, TASK_NAMES));
  const families = new Set<string>(LISTED_FROM_RECORDS);
  let checked = 0;
  for (const [name, build] of Object.entries(keys) as [string, (...args: unknown[]) => string | readonly string[]][]) {
    const made = SECOND.flatMap((second) => [build(DB, second, 1)].flat()).filter((k) => k.startsWith(TAG));
    if (made.length === 0 || name === 'databasePrefix') continue; // not a database key (organisation, global, channel)
    checked++;
    t.ok(families.has(name) || made.some((k) => fixed.has(k)), `${name}: ${made[0]}`);
  }
  t.ok(checked > 40, `${checked} database keys checked`);
  for (const name of families) t.ok(name in keys, `${name} is a keys.ts entry`);
});

t.test('the fixed keys all carry the database tag, once each', async (t) => {
  const all = fixedKeys(DB, TASK_NAMES);
  t.ok(all.every((k) => k.startsWith(`${TAG}:`)));
  t.equal(new Set(all).size, all.length);
});
