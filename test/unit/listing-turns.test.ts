// Listings' rows in flight per database (http/listing-turns.ts): small pages of one database run side
// by side, pages past the budget take turns in arrival order, other databases never wait, and a
// failing listing lets the next one go.
import t from 'tap';
import { ListingTurns, ROWS_IN_FLIGHT } from '../../src/http/listing-turns.js';

// A listing that runs until its release() is called; `log` records starts and ends.
function listing(log: string[], name: string) {
  let release!: (v?: unknown) => void;
  let fail!: (e: unknown) => void;
  const done = new Promise((resolve, reject) => ((release = resolve), (fail = reject)));
  return {
    work: () => {
      log.push(`start ${name}`);
      return done.then(() => void log.push(`end ${name}`));
    },
    release: () => release(),
    fail: (e: unknown) => fail(e),
  };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

t.test('small pages of one database run side by side', async (t) => {
  const turns = new ListingTurns();
  const log: string[] = [];
  const pages = [0, 1, 2, 3].map((k) => listing(log, `p${k}`));
  const runs = pages.map((p) => turns.run('a', ROWS_IN_FLIGHT / 4, p.work));
  await settle();
  t.same(log, ['start p0', 'start p1', 'start p2', 'start p3']);
  pages.forEach((p) => p.release());
  await Promise.all(runs);
  t.equal(turns.busy, 0, 'nothing held once all are done');
});

t.test('large pages of one database take turns, in arrival order; another database does not wait', async (t) => {
  const turns = new ListingTurns();
  const log: string[] = [];
  const [big1, big2, small, other] = ['big1', 'big2', 'small', 'other'].map((n) => listing(log, n));
  const r1 = turns.run('a', ROWS_IN_FLIGHT, big1!.work);
  const r2 = turns.run('a', 16_384, big2!.work); // past the budget: runs alone
  const r3 = turns.run('a', 10, small!.work); // would fit beside nothing: waits for big2, which came first
  const r4 = turns.run('b', 16_384, other!.work);
  await settle();
  t.same(log, ['start big1', 'start other'], 'one large page of a, and b at once');
  big1!.release();
  await r1;
  await settle();
  t.same(log.slice(2), ['end big1', 'start big2'], 'the next in line, alone');
  big2!.release();
  await r2;
  await settle();
  t.same(log.slice(4), ['end big2', 'start small']);
  small!.release();
  other!.release();
  await Promise.all([r3, r4]);
  t.equal(turns.busy, 0);
});

t.test('a failing listing rejects its own call and lets the next go', async (t) => {
  const turns = new ListingTurns();
  const log: string[] = [];
  const [bad, next] = ['bad', 'next'].map((n) => listing(log, n));
  const r1 = turns.run('a', ROWS_IN_FLIGHT, bad!.work);
  const r2 = turns.run('a', ROWS_IN_FLIGHT, next!.work);
  bad!.fail(new Error('storage'));
  await t.rejects(r1, /storage/);
  await settle();
  t.same(log, ['start bad', 'start next']);
  next!.release();
  await r2;
  await t.rejects(
    turns.run('a', 1, () => {
      throw new Error('sync');
    }),
    /sync/,
    'a listing that throws at once is released too',
  );
  t.equal(turns.busy, 0);
});
