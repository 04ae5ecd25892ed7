// A write script's quota answer, {-3, quota name, limit, used} (lua.ts overQuota), as the error it
// stands for; any other reply passes through.
import { quotaExceeded } from '../errors/api-error.js';

export function throwIfOverQuota<T>(reply: T): T {
  if (Array.isArray(reply) && reply[0] === -3) {
    const r = reply as unknown as unknown[];
    throw quotaExceeded(String(r[1]), Number(r[2]), Number(r[3]));
  }
  return reply;
}
