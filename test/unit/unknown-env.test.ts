import t from 'tap';
import { editDistance, unknownSettings } from '../../src/config/unknown-env.js';

t.test('edit distance', async (t) => {
  t.equal(editDistance('', ''), 0);
  t.equal(editDistance('abc', ''), 3);
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('RECD_WORKES', 'RECD_WORKERS'), 1);
});

t.test('only RECD_ variables that nothing reads, each with its closest setting', async (t) => {
  t.same(
    unknownSettings({ PORT: '1', PATH: '/bin', RECD_WORKERS: '2', RECD_WORKER: '1', RECD_DATADIR: 'x', RECD_REDIS_URL: 'redis://' }, [
      'RECD_WORKER',
    ]),
    [
      { variable: 'RECD_DATADIR', closest: 'RECD_DATA_DIR' },
      { variable: 'RECD_REDIS_URL', closest: 'REDIS_URL' },
    ],
  );
});
