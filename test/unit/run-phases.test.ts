// The phases a training run's log names (run-record.ts phaseOf), from its progress texts.
import t from 'tap';
import { phaseOf } from '../../src/engine/training/run-record.js';

t.test('a phase is its progress text before the first count, a round keeping its number', async (t) => {
  t.equal(phaseOf('preparing ratings (0%)'), 'preparing ratings');
  t.equal(phaseOf('iteration 3/15 (42%)'), 'iteration', 'iterations are one phase');
  t.equal(phaseOf('item lists 25,600/100,000 (38%)'), 'item lists');
  t.equal(phaseOf('item lists: co-rated items 256/100,000 (45%)'), 'item lists: co-rated items');
  t.equal(
    phaseOf('item lists: neighbours of neighbours, round 2, 1,024/100,000 (47%)'),
    'item lists: neighbours of neighbours, round 2',
    'each round its own phase',
  );
  t.equal(phaseOf('item lists: neighbours of neighbours, round 1, 0/100,000 (30%)'), 'item lists: neighbours of neighbours, round 1');
  t.equal(phaseOf('search trial 4: ALS NDCG@10 0.3012 (best 0.3100, popularity 0.1000) (20%)'), 'search trial');
  t.equal(phaseOf('publishing (99%)'), 'publishing');
});
