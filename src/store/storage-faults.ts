// Requests failed by a storage fault (Redis away, read-only, full, evicting): each is mapped to its
// 503 here, counted (metrics), and logged once per burst: a full Redis fails every write of every
// client, and a log line per request would bury the one line that says why.
import type { Logger } from 'pino';
import type { ApiError } from '../errors/api-error.js';
import { storageFaultError, storageFaultOf, type StorageFault } from './redis.js';

// A burst ends once no request has met its fault for this long; its end is logged with its count.
// Long enough that a client retrying with backoff stays within one burst, short enough that the end
// line comes soon after Redis has recovered.
export const BURST_QUIET_MS = 5000;

const STARTED: Record<StorageFault, string> = {
  unavailable: 'Redis is unavailable: requests needing it answer 503 STORAGE_UNAVAILABLE',
  read_only: 'Redis is read-only: writes answer 503 WRITING_ON_READONLY_MODE',
  full: "Redis is full (used memory > 'maxmemory', policy noeviction): writes answer 503 STORAGE_UNAVAILABLE until it has room (raise maxmemory or delete data)",
  evicting: 'Redis has an evicting maxmemory-policy: writes answer 503 STORAGE_UNAVAILABLE until it is noeviction again',
};

interface Burst {
  started: number;
  last: number;
  requests: number;
  timer: NodeJS.Timeout;
}

export class StorageFaults {
  private readonly bursts = new Map<StorageFault, Burst>();

  constructor(
    private readonly logger: Logger,
    private readonly count?: (fault: StorageFault) => void,
    private readonly quietMs = BURST_QUIET_MS,
  ) {}

  // The 503 for an error a storage fault caused (noted); undefined for any other error.
  classify = (err: unknown): ApiError | undefined => {
    const fault = storageFaultOf(err);
    if (fault === undefined) return undefined;
    this.note(fault);
    return storageFaultError(fault);
  };

  // A request refused for a fault found without a failed command (an evicting policy).
  refuse(fault: StorageFault): ApiError {
    this.note(fault);
    return storageFaultError(fault);
  }

  // Whether a background write (request counts, rate counters: every 50 ms to 1 s) failed for a
  // storage fault: its burst is logged as the requests' are (not counted: no request was refused).
  background = (err: unknown): boolean => {
    const fault = storageFaultOf(err);
    if (fault !== undefined) this.note(fault, false);
    return fault !== undefined;
  };

  private note(fault: StorageFault, counted = true): void {
    if (counted) this.count?.(fault);
    const now = Date.now();
    const burst = this.bursts.get(fault);
    if (burst) {
      burst.last = now;
      if (counted) burst.requests++;
      return;
    }
    this.logger.warn({ fault }, STARTED[fault]);
    const timer = setInterval(() => this.endIfQuiet(fault), this.quietMs).unref();
    this.bursts.set(fault, { started: now, last: now, requests: counted ? 1 : 0, timer });
  }

  private endIfQuiet(fault: StorageFault): void {
    const burst = this.bursts.get(fault)!;
    if (Date.now() - burst.last < this.quietMs) return;
    clearInterval(burst.timer);
    this.bursts.delete(fault);
    this.logger.info(
      { fault, requests: burst.requests, seconds: Math.round((burst.last - burst.started) / 1000) },
      `storage fault over: ${burst.requests} requests refused (${fault})`,
    );
  }

  stop(): void {
    for (const burst of this.bursts.values()) clearInterval(burst.timer);
    this.bursts.clear();
  }
}
