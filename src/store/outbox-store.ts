// The mail outbox used when no SMTP server is configured.
import type { Connection } from './redis.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  timestamp: number;
}

const KEEP = 1000;

export class OutboxStore {
  constructor(private readonly redis: Connection) {}

  async push(mail: OutboxMail): Promise<void> {
    await this.redis
      .multi()
      .lpush(keys.outbox(), pack(mail))
      .ltrim(keys.outbox(), 0, KEEP - 1)
      .exec();
  }

  async recent(n: number): Promise<OutboxMail[]> {
    const blobs = await this.redis.lrangeBuffer(keys.outbox(), 0, n - 1);
    return blobs.map((b) => unpack<OutboxMail>(b)!);
  }
}
