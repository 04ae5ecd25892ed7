// Redis stalls (SIGSTOP) for longer than the command timeout while single and bulk interactions and
// ratings keep arriving, each sent again after a 503 as the spec advises (interactions with the same
// Idempotency-Key): every answer is 2xx or 503, a 503 comes within the timeout (plus slack), every
// acknowledged write is stored afterwards, and exactly once. Then one stalled call: writes queued
// behind it fail unsent (503 means not applied), the write that was sent is applied when Redis
// resumes, and retries with the same Idempotency-Keys store each write once.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import type { Res } from '../helpers/api.js';
import { freshDatabase, hasWarning, uid, walkPages, why } from '../helpers/feedback.js';
import { rootToken } from '../helpers/fixtures.js';
import { startStack } from '../helpers/stack.js';

const TIMEOUT_MS = 1000;
// What a 503 may take beyond the timeout: the HTTP round trip and timers on a busy test machine.
// Twice the timeout (a request queued behind a call that timed out) is well beyond it.
const SLACK_MS = 700;
const STALL_MS = 2.5 * TIMEOUT_MS;
const USERS = 4;

const stack = await startStack({ RECD_REDIS_TIMEOUT_MS: String(TIMEOUT_MS) });
const pid = stack.redisServer.pid;
let stalled = false;
const stall = () => {
  process.kill(pid, 'SIGSTOP');
  stalled = true;
};
const resume = () => {
  if (stalled) process.kill(pid, 'SIGCONT');
  stalled = false;
};
t.teardown(async () => {
  resume();
  await stack.close();
});
const { api } = stack;
const root = await rootToken(api);
const { token } = await freshDatabase(api, root);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Polls `ok` until it holds (or fails the test after `ms`).
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Answer {
  what: string;
  status: number;
  ms: number;
  text: string;
}

// One request, timed from the client.
async function timed(answers: Answer[], what: string, send: () => Promise<Res>): Promise<Res> {
  const start = performance.now();
  const r = await send();
  answers.push({ what, status: r.status, ms: performance.now() - start, text: r.text.slice(0, 300) });
  return r;
}

interface Interaction {
  user: string;
  item: number;
  timestamp: number;
}

// Every user's stored interactions as "item timestamp" → how many times stored.
async function storedInteractions(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let u = 0; u < USERS; u++) {
    const { rows } = await walkPages(api, token, `users/${uid(u)}/interactions-bulk/`, 'interactions', { amt: 16_384 });
    for (const r of rows)
      out.set(`${r.user_id} ${r.item_id} ${r.timestamp}`, (out.get(`${r.user_id} ${r.item_id} ${r.timestamp}`) ?? 0) + 1);
  }
  return out;
}
const interactionKey = (i: Interaction) => `${i.user} ${i.item} ${i.timestamp}`;

t.test('writes during a Redis stall: 2xx or a timely 503, every acknowledged one stored once', async (t) => {
  const answers: Answer[] = [];
  const interactions: Interaction[] = []; // acknowledged
  const ratings = new Map<string, number>(); // "user item" -> rating, acknowledged
  let seq = 0; // distinct items and timestamps for every write
  let running = true;
  let broken = false; // a writer stopped at an answer other than 2xx or 503
  const acked = { one: 0, bulk: 0, rating: 0, ratingsBulk: 0 };

  // Sends the same request until it is acknowledged; stops at an answer other than 2xx or 503
  // (recorded, and failed below).
  async function untilAcked(what: keyof typeof acked, send: () => Promise<Res>): Promise<boolean> {
    for (;;) {
      const r = await timed(answers, what, send);
      if (r.status >= 200 && r.status < 300) {
        acked[what]++;
        await sleep(10); // room for the other writers on a small machine
        return true;
      }
      if (r.status !== 503) {
        broken = true;
        return false;
      }
      await sleep(50);
    }
  }

  const writers = [
    (async () => {
      while (running) {
        const i: Interaction = { user: uid(seq % USERS), item: ++seq, timestamp: 1_700_000_000 + seq };
        const key = randomUUID();
        const sent = await untilAcked('one', () =>
          api.post(
            `users/${i.user}/interactions/${i.item}/`,
            { interaction_type: 'view', timestamp: i.timestamp },
            { token, headers: { 'idempotency-key': key } },
          ),
        );
        if (!sent) return;
        interactions.push(i);
      }
    })(),
    (async () => {
      while (running) {
        const rows: Interaction[] = Array.from({ length: 25 }, () => ({
          user: uid(seq % USERS),
          item: ++seq,
          timestamp: 1_700_000_000 + seq,
        }));
        const body = {
          interactions: rows.map((i) => ({ user_id: i.user, item_id: i.item, interaction_type: 'purchase', timestamp: i.timestamp })),
        };
        const key = randomUUID();
        if (!(await untilAcked('bulk', () => api.post('interactions-bulk/', body, { token, headers: { 'idempotency-key': key } })))) return;
        interactions.push(...rows);
      }
    })(),
    (async () => {
      while (running) {
        const user = uid(seq % USERS);
        const item = ++seq;
        const rating = (seq % 9) + 1.5;
        if (
          !(await untilAcked('rating', () =>
            api.put(`users/${user}/ratings/${item}/`, { rating, timestamp: 1_700_000_000 + seq }, { token }),
          ))
        )
          return;
        ratings.set(`${user} ${item}`, rating);
      }
    })(),
    (async () => {
      while (running) {
        const rows = Array.from({ length: 25 }, () => ({ user_id: uid(seq % USERS), item_id: ++seq, rating: (seq % 9) + 1.25 }));
        if (!(await untilAcked('ratingsBulk', () => api.put('ratings-bulk/', { ratings: rows }, { token })))) return;
        for (const r of rows) ratings.set(`${r.user_id} ${r.item_id}`, r.rating);
      }
    })(),
  ];

  await until('writes before the stall', () => broken || Object.values(acked).every((k) => k >= 3));
  const before = { ...acked };
  stall();
  // The stall's length is the condition under test: longer than the timeout, so requests time out.
  await sleep(STALL_MS);
  resume();
  await until('writes after the stall', () => broken || Object.entries(acked).every(([k, n]) => n >= before[k as keyof typeof acked] + 3));
  running = false;
  await Promise.all(writers);

  const unavailable = answers.filter((a) => a.status === 503);
  t.ok(unavailable.length > 0, `the stall made requests fail (${unavailable.length} answers 503 of ${answers.length})`);
  t.same(
    answers.filter((a) => a.status !== 503 && (a.status < 200 || a.status >= 300)),
    [],
    'every answer is 2xx or 503',
  );
  t.same(
    unavailable.filter((a) => !a.text.includes('STORAGE_UNAVAILABLE')),
    [],
    'every 503 is STORAGE_UNAVAILABLE',
  );
  const slow = unavailable.filter((a) => a.ms > TIMEOUT_MS + SLACK_MS);
  t.same(
    slow.map((a) => `${a.what} ${Math.round(a.ms)} ms`),
    [],
    `every 503 within ${TIMEOUT_MS} + ${SLACK_MS} ms (slowest ${Math.round(Math.max(...unavailable.map((a) => a.ms)))} ms)`,
  );

  const stored = await storedInteractions();
  const missing = interactions.filter((i) => !stored.has(interactionKey(i)));
  const twice = interactions.filter((i) => (stored.get(interactionKey(i)) ?? 0) > 1);
  t.same(missing.map(interactionKey), [], `every acknowledged interaction is stored (${interactions.length})`);
  t.same(twice.map(interactionKey), [], 'no interaction retried after a 503 is stored twice');
  const repeats = answers.filter((a) => a.text.includes('was applied before'));
  t.comment(`${repeats.length} retries answered as repeats of a write applied after its 503`);

  const held = new Map<string, number>();
  for (let u = 0; u < USERS; u++) {
    const r = await api.get(`users/${uid(u)}/ratings/`, { token, query: 'amt=16384' });
    t.equal(r.status, 200, why(r, 200));
    for (const x of r.body.user_ratings) held.set(`${uid(u)} ${x.item_id}`, x.rating);
  }
  const wrong = [...ratings].filter(([k, v]) => held.get(k) !== v);
  t.same(wrong, [], `every acknowledged rating is stored with its value (${ratings.size})`);
});

t.test('a stalled call: the write sent is applied on resume, those queued behind it never; keyed retries store each once', async (t) => {
  const answers: Answer[] = [];
  const user = uid(USERS + 1);
  const keyOf = new Map([1, 2, 3].map((i) => [i, randomUUID()]));
  const post = (item: number, key: string | undefined = keyOf.get(item)) =>
    timed(answers, `item ${item}`, () =>
      api.post(
        `users/${user}/interactions/${item}/`,
        { interaction_type: 'view', timestamp: 1_800_000_000 + item },
        { token, headers: key ? { 'idempotency-key': key } : {} },
      ),
    );
  const items = async () =>
    (await walkPages(api, token, `users/${user}/interactions-bulk/`, 'interactions')).rows.map((r) => Number(r.item_id));

  stall();
  const first = post(1); // the lane is idle: it goes to Redis at once and waits there
  await sleep(TIMEOUT_MS / 10);
  const all = await Promise.all([first, post(2), post(3)]); // these wait in the lane behind it
  resume();
  for (const r of all) t.equal(r.status, 503, why(r, 503));
  for (const a of answers) t.ok(a.ms <= TIMEOUT_MS + SLACK_MS, `${a.what}: 503 after ${Math.round(a.ms)} ms`);

  // The call sent (item 1's, unless the requests reached the server in another order) was in Redis's
  // input and runs when Redis resumes; the ones queued behind it were never sent.
  await until('the write sent to be applied', async () => (await items()).length > 0);
  const later = await post(4, undefined);
  t.equal(later.status, 200, why(later, 200));
  const applied = await items();
  t.equal(applied.length, 2, `only the write sent before the stall was applied: items ${applied.join(', ')}`);
  const sent = applied[0];

  // Retried with their keys: the one applied is answered as a repeat, the others are applied now.
  for (const item of [1, 2, 3]) {
    const r = await post(item);
    t.equal(r.status, 200, why(r, 200));
    t.equal(hasWarning(r, 'was applied before'), item === sent, `item ${item}: ${item === sent ? 'a repeat' : 'applied now'}`);
  }
  t.same(
    (await items()).sort((a, b) => a - b),
    [1, 2, 3, 4],
    'every write stored once',
  );

  const bad = await post(5, 'not a valid key');
  t.equal(bad.status, 400, why(bad, 400));
  t.match(bad.body, { error_data: { name: 'WRONG_PARAMETER', field: 'Idempotency-Key' } });
});
