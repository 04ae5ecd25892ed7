// The turn budget (services/reco/request/turn-budget.ts) on a clock the test moves: work runs at once while
// the turn is younger than the budget, then waits for later turns, first in first out, each later
// turn running work until the budget is spent; a failing piece of work rejects only its own promise.
import t from 'tap';
import { TurnBudget } from '../../src/services/reco/request/turn-budget.js';

// A clock the work moves forward, and the turn each piece of work ran in: a turn's work runs in one
// callback, and a microtask queued by its first piece runs once that callback is over.
function harness(budgetMs: number, maxWaitMs?: number) {
  let clock = 0;
  let turn = 0;
  let counted = false;
  const turns = new TurnBudget(budgetMs, () => clock, maxWaitMs);
  const ran: { id: number; turn: number }[] = [];
  const work = (id: number, ms: number) => () => {
    if (!counted) {
      counted = true;
      queueMicrotask(() => {
        turn++;
        counted = false;
      });
    }
    ran.push({ id, turn });
    clock += ms;
    return id;
  };
  return { turns, ran, work, advance: (ms: number) => (clock += ms), clock: () => clock };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('work may run while the turn is younger than the budget; a later turn starts afresh', async (t) => {
  const { turns, advance } = harness(0.5);
  t.ok(turns.mayRun(), 'the first ask starts the turn');
  advance(0.3);
  t.ok(turns.mayRun(), '0.3 ms in');
  advance(0.3);
  t.notOk(turns.mayRun(), '0.6 ms in: spent');
  await nextTurn();
  advance(5); // idle time before the next turn is not counted
  t.ok(turns.mayRun(), 'a new turn');
});

t.test('waiting work runs first in first out, each turn until its budget is spent', async (t) => {
  const { turns, ran, work } = harness(0.5);
  const done = Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((id) => turns.later(work(id, 0.2))));
  t.notOk(turns.mayRun(), 'no work overtakes waiting work');
  t.same(await done, [1, 2, 3, 4, 5, 6, 7, 8], 'each promise gets its own value');
  // 0.2 ms each: a turn starts a third at 0.4 ms (< 0.5) and no fourth at 0.6 ms.
  t.same(
    ran.map((r) => [r.id, r.turn]),
    [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 1],
      [6, 1],
      [7, 2],
      [8, 2],
    ],
  );
  t.ok(turns.mayRun(), 'once none waits, work runs at once again');
});

t.test('run: at once while the turn may run, else on a later turn', async (t) => {
  const { turns, ran, work, advance } = harness(0.5);
  t.equal(turns.run(work(1, 0.6)), 1, 'the first piece runs at once and gives its value');
  const second = turns.run(work(2, 0.1));
  t.ok(second instanceof Promise, 'past the budget: a promise');
  t.same(
    ran.map((r) => r.id),
    [1],
    'not run yet',
  );
  advance(0);
  t.equal(await second, 2);
  t.same(
    ran.map((r) => r.id),
    [1, 2],
  );
});

t.test("work that answers later (a session waiting on Redis) gives its promise's value or error", async (t) => {
  const { turns } = harness(0.5);
  const value = turns.later(() => Promise.resolve(7));
  const failure = turns.later(() => Promise.reject(new Error('no model')));
  t.equal(await value, 7);
  await t.rejects(failure, /no model/);
});

t.test('work longer than the budget still runs, one piece a turn; so does a budget of 0', async (t) => {
  for (const [budget, ms] of [
    [0.5, 2],
    [0, 0.01],
  ] as const) {
    const { turns, ran, work } = harness(budget);
    t.notOk(budget === 0 && turns.mayRun(), 'budget 0: nothing runs at once');
    await Promise.all([1, 2, 3].map((id) => turns.later(work(id, ms))));
    t.same(
      ran.map((r) => r.turn),
      [0, 1, 2],
      `budget ${budget} ms, work ${ms} ms`,
    );
  }
});

t.test('a failing piece of work rejects its own promise; the rest run', async (t) => {
  const { turns, ran, work } = harness(0.5);
  const failing = turns.later(() => {
    throw new Error('boom');
  });
  const after = turns.later(work(2, 0.1));
  await t.rejects(failing, { message: 'boom' });
  t.equal(await after, 2);
  t.same(
    ran.map((r) => r.id),
    [2],
  );
});

t.test('work that waited longer than maxWaitMs runs past the budget', async (t) => {
  const { turns, ran, work, advance } = harness(0.5);
  const slow = turns.later(work(1, 0.9)); // a second piece would not start in its turn
  const done = [slow, turns.later(work(2, 0.9)), turns.later(work(3, 0.9))];
  advance(8.5); // the poll phase before the next turn: every piece is overdue (8 ms)
  t.same(await Promise.all(done), [1, 2, 3]);
  t.same(
    ran.map((r) => r.turn),
    [0, 0, 0],
    'all three in one turn',
  );
});

t.test('cheap work at full speed does not starve waiting work', async (t) => {
  // Each turn: three expensive pieces (0.9 ms each: the budget runs one a turn) asked in a poll phase
  // that also serves 2 ms of cheap requests, which never ask the budget. With no bound on waiting
  // (the budget before MAX_WAIT_MS) the queue grows by two pieces a turn and so does the wait; with
  // the bound, no piece waits much past maxWaitMs, and every turn still serves the cheap work.
  const waitsWith = async (maxWaitMs: number) => {
    const { turns, advance, clock } = harness(0.5, maxWaitMs);
    const waits: number[] = [];
    const expensive = (asked: number) => () => {
      waits.push(clock() - asked);
      advance(0.9);
    };
    const waiting: Promise<unknown>[] = [];
    for (let turn = 0; turn < 60; turn++) {
      for (let j = 0; j < 3; j++) {
        const piece = expensive(clock());
        if (turns.mayRun()) piece();
        else waiting.push(turns.later(piece));
      }
      advance(2);
      await nextTurn();
    }
    await Promise.all(waiting);
    t.equal(waits.length, 180, `maxWaitMs ${maxWaitMs}: every piece ran`);
    return Math.max(...waits);
  };
  const unbounded = await waitsWith(Infinity);
  t.ok(unbounded > 60, `unbounded: the longest wait grows with the run (${unbounded.toFixed(1)} ms)`);
  const bounded = await waitsWith(8);
  // An overdue piece runs at the end of the turn it became overdue in: at most 2 ms of cheap work, the
  // three pieces asked in it, and the pieces before it in the queue (those of one turn).
  t.ok(bounded <= 8 + 2 + 6 * 0.9, `bounded: the longest wait ${bounded.toFixed(1)} ms`);
});
