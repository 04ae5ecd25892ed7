// One read per key under way: callers meanwhile share it, a settled read is not kept, and a
// forgotten key's next caller starts its own read without the older one's end dropping it.
import t from 'tap';
import { SharedReads } from '../../src/store/shared-reads.js';

function deferred<T>() {
  let resolve!: (v: T) => void, reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

t.test('callers meanwhile share one read; after it settles the next one reads again', async (t) => {
  const reads = new SharedReads<number>();
  let started = 0;
  const d = deferred<number>();
  const a = reads.get('k', () => (started++, d.promise));
  const b = reads.get('k', () => (started++, Promise.resolve(-1)));
  t.equal(a, b);
  d.resolve(7);
  t.same(await Promise.all([a, b]), [7, 7]);
  t.equal(started, 1);
  t.equal(await reads.get('k', () => (started++, Promise.resolve(8))), 8);
  t.equal(started, 2);
});

t.test('a failed read is shared too and not kept', async (t) => {
  const reads = new SharedReads<number>();
  const d = deferred<number>();
  const a = reads.get('k', () => d.promise);
  const b = reads.get('k', () => Promise.resolve(0));
  d.reject(new Error('down'));
  await t.rejects(a, /down/);
  await t.rejects(b, /down/);
  t.equal(await reads.get('k', () => Promise.resolve(3)), 3);
});

t.test('after forget the next caller reads anew, and the older read ending does not drop the newer', async (t) => {
  const reads = new SharedReads<string>();
  const old = deferred<string>(),
    fresh = deferred<string>();
  const a = reads.get('k', () => old.promise);
  reads.forget('k');
  const b = reads.get('k', () => fresh.promise);
  t.not(a, b);
  old.resolve('before the change');
  await a;
  t.equal(
    reads.get('k', () => Promise.resolve('a third read')),
    b,
    'the newer read is still shared',
  );
  fresh.resolve('after');
  t.equal(await b, 'after');
});
