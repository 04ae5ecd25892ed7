// The training threads shared between runs (engine/training/fair-share.ts): never more tasks running
// than slots, a free slot goes to the waiting run that has had the least thread time (a new run's
// task before a long run's next), a run's own tasks keep their order, and a failing task rejects only
// its own call.
import t from 'tap';
import { FairShare } from '../../src/engine/training/fair-share.js';

const settle = () => new Promise<void>((r) => setImmediate(r));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// A task that runs until released; `log` records its start.
function tasks(log: string[]) {
  const release = new Map<string, () => void>();
  const fail = new Map<string, (e: unknown) => void>();
  const make = (name: string) => () => {
    log.push(name);
    return new Promise<string>((resolve, reject) => {
      release.set(name, () => resolve(name));
      fail.set(name, reject);
    });
  };
  return { make, release: (name: string) => release.get(name)!(), fail: (name: string, e: unknown) => fail.get(name)!(e) };
}

t.test('a new run goes before a long run, whose tasks keep their order', async (t) => {
  const share = new FairShare(1);
  const log: string[] = [];
  const { make, release } = tasks(log);
  const long = {},
    small = {};
  const done = ['a1', 'a2', 'a3'].map((n) => share.run(long, make(n)));
  await settle();
  t.same(log, ['a1'], 'one slot: one task');
  await sleep(5); // a1 has used thread time
  const b = share.run(small, make('b1'));
  release('a1');
  await settle();
  t.same(log, ['a1', 'b1'], "the new run's task goes before a2");
  release('b1');
  await b;
  await settle();
  t.same(log, ['a1', 'b1', 'a2']);
  release('a2');
  await settle();
  release('a3');
  t.same(await Promise.all(done), ['a1', 'a2', 'a3']);
});

t.test('never more running than slots; the run with less time goes first', async (t) => {
  const share = new FairShare(2);
  const log: string[] = [];
  const { make, release } = tasks(log);
  const x = {},
    y = {};
  const all = [share.run(x, make('x1')), share.run(x, make('x2')), share.run(x, make('x3')), share.run(y, make('y1'))];
  await settle();
  t.same(log, ['x1', 'x2'], 'two slots');
  await sleep(5);
  release('x1');
  await settle();
  t.same(log, ['x1', 'x2', 'y1'], 'y has had no time: it goes before x3');
  release('x2');
  await settle();
  t.same(log, ['x1', 'x2', 'y1', 'x3']);
  release('y1');
  release('x3');
  await Promise.all(all);
});

t.test('a failing task rejects its own call and frees its slot', async (t) => {
  const share = new FairShare(1);
  const log: string[] = [];
  const { make, release, fail } = tasks(log);
  const run = {};
  const bad = share.run(run, make('bad'));
  const next = share.run(run, make('next'));
  await settle();
  fail('bad', new Error('worker'));
  await t.rejects(bad, /worker/);
  await settle();
  t.same(log, ['bad', 'next']);
  release('next');
  t.equal(await next, 'next');
});
