// Users' lists made on requests: held per (model, user row), at most `max`, the least recently used evicted.
import t from 'tap';
import { UserListCache } from '../../src/services/reco/request/user-list-cache.js';

t.test('lists by model and row, the least recently used evicted past the cap', async (t) => {
  const s = new UserListCache(2);
  const a = Uint32Array.of(1, 2),
    b = Uint32Array.of(3, 4),
    c = Uint32Array.of(5, 6);
  s.set('m1', 0, a);
  s.set('m2', 0, b);
  t.equal(s.get('m1', 0), a);
  t.equal(s.get('m2', 0), b, 'another model, the same row: another list');
  t.equal(s.get('m1', 1), undefined);
  s.get('m1', 0);
  s.set('m1', 1, c);
  t.equal(s.size, 2);
  t.equal(s.get('m2', 0), undefined, 'the least recently used evicted');
  t.equal(s.get('m1', 0), a);
  t.equal(s.get('m1', 1), c);
});

t.test('a cap of 0 holds none', async (t) => {
  const s = new UserListCache(0);
  s.set('m', 0, Uint32Array.of(1));
  t.equal(s.get('m', 0), undefined);
  t.equal(s.size, 0);
});
