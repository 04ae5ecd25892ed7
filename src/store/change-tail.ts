// Tails the streams this process keeps state from (each database's catalogue changes, the ratings log
// of the databases it serves models of), on Redis connections of their own (XREAD BLOCK parks them).
// Watching a stream interrupts the parked read with CLIENT UNBLOCK, so a new stream is tailed at once.
// One XREAD may name only streams of one cluster slot, so streams are read in lanes: on one server a
// single lane reads them all, on a cluster there is a lane per hash tag (per database: its streams
// share one), each with its connection to the node serving that slot.
import type { Logger } from 'pino';
import { Cluster, dedicatedConnection, nodeOf, watchConnection, type Connection, type Redis } from './redis.js';

export interface StreamEntry {
  id: string;
  fields: Map<string, string>;
}

// `behind`: entries may have been trimmed from the stream before they were read (the read came after
// a failure, or the tail is a full batch behind); the handler decides whether that matters.
export type StreamHandler = (entries: StreamEntry[], behind: boolean) => Promise<void>;

interface Watch {
  after: string; // last entry handled
  handler: StreamHandler;
}

const BATCH = 1000;
const BLOCK_MS = 5000;

// The lane a stream is read in: its hash tag on a cluster (keys.ts tags every database's keys).
function laneOf(redis: Connection, stream: string): string {
  if (!(redis instanceof Cluster)) return '';
  const open = stream.indexOf('{');
  const close = stream.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? stream.slice(open, close + 1) : stream;
}

export class ChangeTail {
  private readonly lanes = new Map<string, Lane>();
  private stopped = false;

  constructor(
    private readonly redis: Connection,
    private readonly logger: Logger,
  ) {}

  // The id of a stream's newest entry (tail from there), '0-0' for an empty stream.
  async last(stream: string): Promise<string> {
    const r = await this.redis.xrevrange(stream, '+', '-', 'COUNT', 1);
    return r[0]?.[0] ?? '0-0';
  }

  // The id of the oldest entry still kept (older ones were trimmed), undefined for an empty stream.
  async first(stream: string): Promise<string | undefined> {
    const r = await this.redis.xrange(stream, '-', '+', 'COUNT', 1);
    return r[0]?.[0];
  }

  // Calls handler with every entry after `after`, in order, one batch at a time (the next batch
  // waits for the handler). A handler that throws gets the same batch again a little later.
  // Once stopped, takes no watch: a read that began before the stop (a catalogue starting, a model's
  // log being read) may end after it, and its lane would open a connection nothing closes, which then
  // reconnects to a stopped Redis for as long as the process lives.
  watch(stream: string, after: string, handler: StreamHandler): void {
    if (this.stopped) return;
    const name = laneOf(this.redis, stream);
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = new Lane(this.redis, stream, this.logger);
      this.lanes.set(name, lane);
    }
    lane.watch(stream, after, handler);
  }

  unwatch(stream: string): void {
    const name = laneOf(this.redis, stream);
    const lane = this.lanes.get(name);
    if (!lane) return;
    lane.unwatch(stream);
    // A cluster's lanes come and go with their databases; the one lane of a single server stays.
    if (lane.empty && name !== '') {
      this.lanes.delete(name);
      void lane.stop();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.lanes.values()].map((lane) => lane.stop()));
    this.lanes.clear();
  }
}

// The streams of one slot (or all of one server's), read by one loop on one connection.
class Lane {
  private conn: Redis | undefined;
  private unblocker: Redis | undefined; // where CLIENT UNBLOCK goes: a connection to the same server
  private readonly watched = new Map<string, Watch>(); // stream key -> watch
  private connId: number | undefined;
  private parked = false; // an XREAD is (or may be) waiting in Redis
  private dirty = false; // the watched set changed since the parked XREAD was sent
  private running = true;
  private failed = false; // the last read failed: what it missed may have been trimmed meanwhile
  private wake: (() => void) | undefined;
  private unblocking: NodeJS.Timeout | undefined;
  private lost: (() => void) | undefined; // fails the read in flight when the connection closes
  private readonly done: Promise<void>;

  constructor(
    private readonly redis: Connection,
    private readonly sample: string, // a stream of the lane: names the node to connect to
    private readonly logger: Logger,
  ) {
    this.done = this.loop();
  }

  get empty(): boolean {
    return this.watched.size === 0;
  }

  watch(stream: string, after: string, handler: StreamHandler): void {
    this.watched.set(stream, { after, handler });
    this.changed();
  }

  unwatch(stream: string): void {
    if (this.watched.delete(stream)) this.changed();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.unblocking);
    this.wake?.();
    this.conn?.disconnect();
    await this.done;
  }

  // No command timeout: a parked XREAD is meant to wait. A read cut by a lost connection fails
  // (rather than being sent again by the client) so the loop knows it may have missed changes.
  private async open(): Promise<Redis> {
    const conn = await dedicatedConnection(this.redis, this.sample, {
      commandTimeout: undefined,
      connectionName: 'recd-tail',
      maxRetriesPerRequest: null,
      autoResendUnfulfilledCommands: false,
      enableAutoPipelining: false,
    });
    watchConnection(conn, 'recd-tail', this.logger);
    conn.on('close', () => {
      this.connId = undefined;
      this.lost?.();
    });
    this.unblocker = await nodeOf(this.redis, this.sample);
    return conn;
  }

  // A CLIENT UNBLOCK sent before the parked XREAD reaches Redis does nothing, so it is repeated
  // until the loop has started a read with the new set of streams.
  private changed(): void {
    this.dirty = true;
    this.wake?.();
    if (this.unblocking) return;
    this.unblocking = setInterval(() => {
      if (!this.dirty || !this.running) {
        clearInterval(this.unblocking);
        this.unblocking = undefined;
      } else if (this.parked && this.connId !== undefined) {
        this.unblocker?.client('UNBLOCK', this.connId).catch(() => undefined);
      }
    }, 10);
    this.unblocking.unref();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      if (this.watched.size === 0) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      try {
        this.conn ??= await this.open();
        if (!this.running) break;
        this.connId ??= (await this.conn.client('ID')) as number;
        this.dirty = false;
        const streams = [...this.watched.entries()];
        this.parked = true;
        // The client neither answers nor fails a read cut by a lost connection: race it with the loss.
        const read = this.conn.xread(
          'COUNT',
          BATCH,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          ...streams.map(([k]) => k),
          ...streams.map(([, w]) => w.after),
        );
        read.catch(() => undefined);
        const lost = new Promise<never>((_, reject) => (this.lost = () => reject(new Error('change tail connection lost'))));
        const res = (await Promise.race([read, lost])) as [string, [string, string[]][]][] | null;
        this.lost = undefined;
        this.parked = false;
        for (const [key, entries] of res ?? []) {
          const w = this.watched.get(key);
          if (!w || entries.length === 0) continue;
          await w.handler(entries.map(streamEntry), this.failed || entries.length === BATCH);
          w.after = entries[entries.length - 1]![0];
        }
        this.failed = false;
      } catch (err) {
        this.parked = false;
        if (!this.running) break;
        this.connId = undefined;
        this.failed = true;
        // A cluster lane's connection does not reconnect, and its slot may have moved (MOVED): the
        // next read opens one to wherever the slot is now.
        if (this.redis instanceof Cluster) {
          this.conn?.disconnect();
          this.conn = undefined;
        }
        this.logger.warn({ err }, 'stream tail: read failed, retrying');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    this.conn?.disconnect();
  }
}

function streamEntry([id, list]: [string, string[]]): StreamEntry {
  const fields = new Map<string, string>();
  for (let i = 0; i < list.length; i += 2) fields.set(list[i]!, list[i + 1]!);
  return { id, fields };
}

// Stream ids are `<ms>-<seq>`.
export function compareChangeIds(a: string, b: string): number {
  const i = a.indexOf('-');
  const j = b.indexOf('-');
  const am = Number(a.slice(0, i));
  const bm = Number(b.slice(0, j));
  return am !== bm ? am - bm : Number(a.slice(i + 1)) - Number(b.slice(j + 1));
}
