// The change tail's stop on a real Redis: a watch that comes after it (a read begun before the stop
// and ended after it) opens no connection, which would otherwise reconnect to a stopped Redis for as
// long as the process lives.
import t from 'tap';
import { pino } from 'pino';
import { ChangeTail } from '../../src/store/change-tail.js';
import { storeRedis } from '../helpers/stack.js';
import { until } from '../helpers/reco.js';

const redis = await storeRedis(t, 'change-tail-test');
const tails = async () => ((await redis.client('LIST')) as string).split('\n').filter((l) => l.includes('name=recd-tail')).length;

t.test('a watch after the stop opens nothing', async (t) => {
  const tail = new ChangeTail(redis, pino({ level: 'silent' }));
  const seen: string[] = [];
  tail.watch('tail-test:a', '0-0', async (entries) => void seen.push(...entries.map((e) => e.fields.get('v')!)));
  await redis.xadd('tail-test:a', '*', 'v', 'one');
  await until(
    'the entry handled',
    async () => seen.length,
    (n) => n === 1,
    10_000,
  );
  t.equal(await tails(), 1, 'the tail reads on a connection of its own');
  await tail.stop();
  await until('its connection closed', tails, (n) => n === 0, 10_000);
  tail.watch('tail-test:b', '0-0', async () => undefined);
  await redis.xadd('tail-test:b', '*', 'v', 'two');
  await new Promise((r) => setTimeout(r, 500));
  t.equal(await tails(), 0, 'no connection after the stop');
});
