// Shared by the failover tests (a cluster primary, a Sentinel-watched primary): kill -9 of a Redis,
// the wait that makes sure its replica holds every write acknowledged so far, and a writer that drives
// recd through the switch, keeping the writes recd acknowledged to read them back afterwards.
import { Redis } from 'ioredis';
import { running, type EmbeddedRedis } from '../../src/store/redis-server.js';
import type { Api, Res } from './api.js';
import { errorOf } from './fixtures.js';
import { ratingsOf, uid, why } from './feedback.js';
import { pause, type Tt } from './reco.js';

// SIGKILL to redis-server itself (its guard then exits too): no shutdown, no last write to its files.
export async function killRedis(server: EmbeddedRedis): Promise<void> {
  process.kill(server.pid, 'SIGKILL');
  while (running(server.pid)) await pause(20);
}

// Every write the primary at `port` acknowledged so far, by any client, is on a replica: WAIT waits for
// the replication offset of this connection's last write (`probe`, a key the node serves), which is
// past every earlier write of the node.
export async function replicated(port: number, probe: string): Promise<void> {
  const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await c.set(probe, '1');
    await c.del(probe);
    const replicas = Number(await c.call('WAIT', 1, 10_000));
    if (replicas < 1) throw new Error(`no replica of 127.0.0.1:${port} acknowledged its writes within 10 s`);
  } finally {
    c.disconnect();
  }
}

// What recd may answer while its Redis fails over: 2xx, or 503 ServerUnavailable (storage away, or a
// primary turned read-only); anything else (a 500, a request left hanging) is a failure.
export const SWITCH_ANSWERS = ['STORAGE_UNAVAILABLE', 'WRITING_ON_READONLY_MODE'];
export function switchAnswerOk(r: Res): boolean {
  if (r.status >= 200 && r.status < 300) return true;
  const e = errorOf(r);
  return e.status === 503 && e.code === 1 && e.errorName === 'ServerUnavailable' && SWITCH_ANSWERS.includes(e.name);
}

export interface Answer {
  what: string;
  status: number; // 0: no answer within the bound
  ok: boolean; // an answer a switch may give (switchAnswerOk)
  ms: number; // how long it took (reported, not asserted)
  text: string;
}

// Writes items (genre `genre`, price = id) and one rating per new user through the API, one request
// at a time, and remembers those acknowledged.
export class FeedbackWriter {
  readonly items: number[] = []; // acknowledged item writes
  readonly ratings = new Map<string, number>(); // user -> the item of its acknowledged rating
  readonly answers: Answer[] = [];
  private next = 0;

  constructor(
    readonly api: Api,
    readonly token: string,
    private readonly genre: string,
    private readonly boundMs: number, // longest a request may take (recd's Redis timeout and a margin)
    private readonly firstId = 1000,
  ) {}

  // One request, bounded; its answer is kept with the others.
  async ask(what: string, send: () => Promise<Res>): Promise<Res | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<undefined>((res) => {
      timer = setTimeout(() => res(undefined), this.boundMs);
    });
    const started = Date.now();
    const r = await Promise.race([send(), hung]);
    clearTimeout(timer);
    this.answers.push({
      what,
      status: r?.status ?? 0,
      ok: r !== undefined && switchAnswerOk(r),
      ms: Date.now() - started,
      text: r?.text.slice(0, 300) ?? `no answer within ${this.boundMs} ms`,
    });
    return r;
  }

  // One item write, one rating write and two reads, sent together (recd batches their Redis commands
  // with each other's); true when both writes were acknowledged.
  async round(): Promise<boolean> {
    const k = this.firstId + this.next++;
    const user = uid(k);
    const rated = (k % 40) + 1;
    const [item, rating] = await Promise.all([
      this.ask(`PUT items/${k}`, () =>
        this.api.put(`items/${k}/properties/`, { item: { genre: this.genre, price: k } }, { token: this.token }),
      ),
      this.ask(`PUT ratings of user ${k}`, () =>
        this.api.put(`users/${user}/ratings/`, { ratings: [{ item_id: rated, rating: 7 }] }, { token: this.token }),
      ),
      this.ask('GET ratings', () => this.api.get(`users/${uid(this.firstId)}/ratings/`, { token: this.token })),
      this.ask('GET status', () => this.api.get('databases/current/status/', { token: this.token })),
    ]);
    const ok = (r: Res | undefined) => r !== undefined && r.status >= 200 && r.status < 300;
    if (ok(item)) this.items.push(k);
    if (ok(rating)) this.ratings.set(user, rated);
    return ok(item) && ok(rating);
  }

  // The answers that were neither 2xx nor the 503 of a switch, or no answer at all.
  wrong(): Answer[] {
    return this.answers.filter((a) => !a.ok);
  }
}

// Rounds of every writer at once until `streak` rounds in a row had all writes acknowledged, or capMs
// passed: recd comes back by itself once the replica has taken over. Whether it did, and how long it took.
export async function writeThroughSwitch(
  writers: FeedbackWriter[],
  capMs = 60_000,
  streak = 5,
): Promise<{ recovered: boolean; ms: number }> {
  const started = Date.now();
  let inRow = 0;
  while (inRow < streak) {
    if (Date.now() - started > capMs) return { recovered: false, ms: Date.now() - started };
    inRow = (await Promise.all(writers.map((w) => w.round()))).every(Boolean) ? inRow + 1 : 0;
    // Paced: a 503 may come at once, and the switch takes seconds.
    if (inRow === 0) await pause(50);
  }
  return { recovered: true, ms: Date.now() - started };
}

// Every write the writer saw acknowledged reads back through the API.
export async function assertKept(t: Tt, w: FeedbackWriter, what: string): Promise<void> {
  const listed = await w.api.post('items-bulk/properties/list/', { items_id: w.items }, { token: w.token });
  t.equal(listed.status, 200, why(listed, 200));
  const ids = (listed.body.items ?? []).map((i: { item_id: number }) => i.item_id).sort((x: number, y: number) => x - y);
  t.same(ids, w.items, `${what}: all ${w.items.length} acknowledged items read back`);
  let missing = 0;
  for (const [user, item] of w.ratings) if (!(await ratingsOf(w.api, w.token, user)).some((r) => r.item_id === item)) missing++;
  t.equal(missing, 0, `${what}: all ${w.ratings.size} acknowledged ratings read back`);
}
