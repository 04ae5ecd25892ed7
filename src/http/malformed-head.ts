// Heads refused before routing (server.ts answers 400 and closes the connection): a Content-Length
// that is not one plain number, and a header recd reads with a byte outside printable ASCII.
import { wrongData, type ApiError } from '../errors/api-error.js';

// HTTP's grammar for Content-Length: digits only. uWebSockets.js refuses a value such as "-1" or
// "+2" itself, but only after the request handler has run on it.
const DIGITS = /^\d+$/;
// Printable ASCII, the space included (inside a value: "Bearer <token>", "application/json; q=1").
const UNPRINTABLE = /[^\x20-\x7e]/;

// The headers recd reads whose value it acts on, by the name an error shows.
export interface ReadHeaders {
  authorization: string;
  idempotencyKey: string;
  contentType: string;
  contentEncoding: string;
}

// contentLength: the first Content-Length ('' when none); lengths: how many Content-Length headers
// the request has. Undefined when the head is sound.
export function malformedHead(contentLength: string, lengths: number, h: ReadHeaders): ApiError | undefined {
  // Two lengths: uWebSockets.js frames the body by the first, a proxy in front may go by the last,
  // and the bytes between would be read as a request of their own (request smuggling).
  if (lengths > 1) return refused('Content-Length', 'a request may have one Content-Length header only');
  if (contentLength !== '' && !DIGITS.test(contentLength))
    return refused('Content-Length', `Content-Length must be a number of bytes, not ${JSON.stringify(contentLength)}`);
  // A byte past ASCII would be read as Latin-1 here and as UTF-8 by whoever sent it: one key or
  // token would have two spellings.
  if (UNPRINTABLE.test(h.authorization)) return refused('Authorization', 'the Authorization header must be printable ASCII');
  if (UNPRINTABLE.test(h.idempotencyKey)) return refused('Idempotency-Key', 'the Idempotency-Key header must be printable ASCII');
  if (UNPRINTABLE.test(h.contentType)) return refused('Content-Type', 'the Content-Type header must be printable ASCII');
  if (UNPRINTABLE.test(h.contentEncoding)) return refused('Content-Encoding', 'the Content-Encoding header must be printable ASCII');
  return undefined;
}

const refused = (field: string, message: string) => wrongData('WRONG_PARAMETER', message, { field });
