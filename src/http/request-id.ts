// Request ids: the client's X-Request-Id when it is sane, else one made here. A random prefix per
// process and a counter in base 36 are unique across processes and restarts at the cost of one
// string concatenation per request (a UUID per request would cost a random draw each).
import { randomBytes } from 'node:crypto';

export const MAX_REQUEST_ID_CHARS = 128;
const PREFIX = `${randomBytes(9).toString('base64url')}-`;
let seq = 0;

export function newRequestId(): string {
  return PREFIX + (++seq).toString(36);
}

// An incoming id is kept when it is 1-128 visible ASCII characters (it goes into headers and logs as it is).
export function acceptedRequestId(header: string): string {
  const n = header.length;
  if (n === 0 || n > MAX_REQUEST_ID_CHARS) return newRequestId();
  for (let i = 0; i < n; i++) {
    const c = header.charCodeAt(i);
    if (c < 0x21 || c > 0x7e) return newRequestId();
  }
  return header;
}
