// The synthetic data set (synthetic.ts) uploaded over HTTP as a client would (uploadSynthetic): item properties, items, then ratings a batch at a time with a few requests in flight.
//
// Item properties `category` (unicode32) and `year` (int16); items with PUT items-bulk/properties/
// (ITEM_BATCH a request); ratings with PUT ratings-bulk/, which creates the users it names (no
// users-bulk call needed: docs/api-choices.md, "Users and items that have no properties yet get dense
// indices and become known"). Ratings are generated while they are sent, never all held at once.
//
// BENCH_SYNTH_BATCH: ratings per request, default 65,536. The spec sets no maximum for ratings-bulk (it
// suggests ~500 records a request); recd takes up to 1,000,000 rows and RECD_MAX_BODY_BYTES (64 MiB) of
// body, which bounds JSON at ~838,000 rows (checkBatch). BENCH_SYNTH_IN_FLIGHT: requests in flight at
// once, default 2. BENCH_SYNTH_CODEC: json (default, what a JavaScript client sends) or pickle (what the
// Python clients send: a pickled numpy structured array, here uncompressed). Measured with
// bench/http/synthetic-upload.ts on 2 shared cores (2M ratings, trainer kept out): one request in flight
// ~215k ratings/s, two or more 255k–315k; 16,384 to 65,536 a request alike within the noise, 131,072 and
// more slower (190k–240k; not looked into); pickle ~1.3× JSON.
import { encodePickle, NumpyRecords } from '../../src/codecs/pickle/encode.js';
import { ok } from './api.js';
import { CATEGORIES, type RatingBatch, type Synthetic } from './synthetic.js';

const ITEM_BATCH = 20_000;
// recd's limits on one request: rows (src/routes/ratings.ts) and body bytes (RECD_MAX_BODY_BYTES, which
// the benches pass on to recd). A JSON row takes up to ROW_MAX bytes, a pickle row 13.
const MAX_ROWS = 1_000_000;
const ROW_MAX = 80; // the longest JSON row: four ten-digit numbers (the rating has two), the names, a comma
const PICKLE_ROW = 13; // u4, u4, u1, u4

export type Codec = 'json' | 'pickle';

export interface UploadOptions {
  batch: number;
  inFlight: number;
  codec: Codec;
}

export function uploadOptions(): UploadOptions {
  const int = (name: string, fallback: number, max: number) => {
    const raw = process.env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const n = Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new Error(`${name} must be an integer from 1 to ${max}, got ${JSON.stringify(raw)}`);
    return n;
  };
  const codec = process.env.BENCH_SYNTH_CODEC?.trim() || 'json';
  if (codec !== 'json' && codec !== 'pickle') throw new Error(`BENCH_SYNTH_CODEC must be json or pickle, got ${JSON.stringify(codec)}`);
  const o: UploadOptions = { batch: int('BENCH_SYNTH_BATCH', 65_536, MAX_ROWS), inFlight: int('BENCH_SYNTH_IN_FLIGHT', 2, 64), codec };
  checkBatch(o);
  return o;
}

// Throws when `o.batch` ratings may not fit in one request.
export function checkBatch(o: UploadOptions): void {
  const maxBody = Number(process.env.RECD_MAX_BODY_BYTES || 64 * 1024 ** 2);
  const rows = Math.min(MAX_ROWS, Math.floor((maxBody - 1024) / (o.codec === 'json' ? ROW_MAX : PICKLE_ROW)));
  if (o.batch > rows)
    throw new Error(
      `${o.batch} ratings a request may exceed recd's limits (${MAX_ROWS} rows, RECD_MAX_BODY_BYTES=${maxBody} bytes): at most ${rows} over ${o.codec}`,
    );
}

export interface Uploaded {
  itemsSeconds: number;
  ratingsSeconds: number;
  ratings: number;
  requests: number;
  bytes: number; // ratings bodies as sent
  options: UploadOptions;
}

// A batch as a JSON body, its bytes written by hand: 0.3 µs a rating, against 1.5 µs for a string per
// row joined and encoded (20M ratings: 6 s of the runner's CPU instead of 30, on the cores recd uses).
const ASCII = (text: string) => new TextEncoder().encode(text);
const OPEN = ASCII('{"ratings":['),
  USER = ASCII('{"user_id":'),
  ITEM = ASCII(',"item_id":'),
  RATING = ASCII(',"rating":'),
  TIME = ASCII(',"timestamp":'),
  CLOSE = ASCII(']}');

function put(dst: Uint8Array, at: number, bytes: Uint8Array): number {
  dst.set(bytes, at);
  return at + bytes.length;
}

// Decimal digits of v (an integer ≥ 0 below 2^32) at `at`; returns the end.
function digits(dst: Uint8Array, at: number, v: number): number {
  let n = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) n++;
  for (let p = at + n - 1, x = v; p >= at; p--, x = Math.floor(x / 10)) dst[p] = 48 + (x % 10);
  return at + n;
}

export function jsonBody(b: RatingBatch): Uint8Array {
  const out = new Uint8Array(OPEN.length + CLOSE.length + b.n * ROW_MAX);
  let at = put(out, 0, OPEN);
  for (let j = 0; j < b.n; j++) {
    if (j > 0) out[at++] = 44; // ,
    at = digits(out, put(out, at, USER), b.user[j]!);
    at = digits(out, put(out, at, ITEM), b.item[j]!);
    at = digits(out, put(out, at, RATING), b.rating[j]!);
    at = digits(out, put(out, at, TIME), b.timestamp[j]!);
    out[at++] = 125; // }
  }
  return out.subarray(0, put(out, at, CLOSE));
}

// A batch as the Python clients send it: {'ratings': structured array (user_id u4, item_id u4, rating u1, timestamp u4)}.
export function pickleBody(b: RatingBatch): Uint8Array {
  return encodePickle({ ratings: new NumpyRecords({ user_id: b.user, item_id: b.item, rating: b.rating, timestamp: b.timestamp }) });
}

const CONTENT_TYPE: Record<Codec, string> = { json: 'application/json', pickle: 'application/xminds-pkl' };

async function send(base: string, token: string, codec: Codec, body: Uint8Array): Promise<void> {
  const type = CONTENT_TYPE[codec];
  const res = await fetch(`${base}/v1/ratings-bulk/`, {
    method: 'PUT',
    headers: { 'content-type': type, accept: 'application/json', authorization: `Bearer ${token}` },
    body: new Blob([body as Uint8Array<ArrayBuffer>]),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`PUT ratings-bulk/ (${codec}): ${res.status} ${text.slice(0, 500)}`);
}

// Runs send(x) for every x of `work`, at most `inFlight` at once; the first failure stops it.
async function inFlightAtOnce<T>(work: Iterable<T>, inFlight: number, send: (x: T) => Promise<void>): Promise<number> {
  const pending = new Set<Promise<void>>();
  let failure: unknown;
  let sent = 0;
  for (const x of work) {
    if (failure !== undefined) break;
    const p: Promise<void> = send(x).then(
      () => void pending.delete(p),
      (err) => {
        pending.delete(p);
        failure ??= err;
      },
    );
    pending.add(p);
    sent++;
    if (pending.size >= inFlight) await Promise.race(pending);
  }
  await Promise.all(pending);
  if (failure !== undefined) throw failure;
  return sent;
}

// `base` is http://host:port (paths start with /v1/).
export async function uploadSynthetic(base: string, token: string, data: Synthetic, o: UploadOptions): Promise<Uploaded> {
  const { items: N, ratings: R } = data.sizes;
  let t0 = performance.now();
  await ok(
    base,
    token,
    'POST',
    '/v1/items-properties/',
    { property_name: 'category', value_type: 'unicode32', repeated: false },
    [200, 204],
  );
  await ok(base, token, 'POST', '/v1/items-properties/', { property_name: 'year', value_type: 'int16', repeated: false }, [200, 204]);
  function* itemBatches() {
    for (let start = 1; start <= N; start += ITEM_BATCH) {
      const items = [];
      for (let id = start; id < Math.min(N + 1, start + ITEM_BATCH); id++)
        items.push({ item_id: id, category: CATEGORIES[data.categoryOf[id]!]!, year: data.yearOf[id]! });
      yield items;
    }
  }
  await inFlightAtOnce(
    itemBatches(),
    o.inFlight,
    async (items) => void (await ok(base, token, 'PUT', '/v1/items-bulk/properties/', { items }, [200, 202])),
  );
  const itemsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`synthetic: ${N.toLocaleString('en-US')} items uploaded in ${itemsSeconds.toFixed(1)} s\n`);

  t0 = performance.now();
  let ratings = 0,
    bytes = 0,
    lastReport = t0;
  function* bodies() {
    for (const b of data.batches(o.batch)) {
      const body = o.codec === 'json' ? jsonBody(b) : pickleBody(b);
      ratings += b.n;
      bytes += body.byteLength;
      yield body;
    }
  }
  const requests = await inFlightAtOnce(bodies(), o.inFlight, async (body) => {
    await send(base, token, o.codec, body);
    const now = performance.now();
    if (now - lastReport > 10_000) {
      lastReport = now;
      process.stderr.write(
        `  ${ratings.toLocaleString('en-US')} of ${R.toLocaleString('en-US')} ratings generated and sent (${Math.round(ratings / ((now - t0) / 1000)).toLocaleString('en-US')} a second)\n`,
      );
    }
  });
  const ratingsSeconds = (performance.now() - t0) / 1000;
  if (ratings !== R) throw new Error(`generated ${ratings} ratings, not ${R}`);
  process.stderr.write(
    `synthetic: ${R.toLocaleString('en-US')} ratings uploaded in ${ratingsSeconds.toFixed(1)} s (${Math.round(R / ratingsSeconds).toLocaleString('en-US')} a second; ${requests} requests of ${o.batch.toLocaleString('en-US')}, ${o.inFlight} in flight, ${o.codec})\n`,
  );
  return { itemsSeconds, ratingsSeconds, ratings, requests, bytes, options: o };
}
