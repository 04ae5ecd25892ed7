// ml-latest-small uploaded over HTTP and trained (upload, dataLine), for bench/http/reco.ts and reco-scenario.ts.
//
// As a client would: a database with uint32 item and user ids, item properties `genre` (unicode32, the
// first genre of movies.csv) and `year` (int16, from the title; left out when the title has none) for
// every movie, then every rating of ratings.csv (movieId, userId, rating × 2 so 0.5–5 becomes 1–10,
// timestamp) with PUT ratings-bulk/ in batches of 16,384, then trained (retrain.ts).
// The dataset is read in place from $RECD_DATASETS/ml-latest-small (never copied).
import { csvLines } from '../quality/data.js';
import { ok } from './api.js';
import { retrain, type Trained } from './retrain.js';

// The filtered scenarios' two filters (reco.ts's f, reco-dispatch-cost.ts): properties only
// ml-latest-small's upload gives (genre, year).
export const ML_SMALL_FILTERS = 'filters=genre:eq:Drama&filters=year:gte:1990';

const BATCH = 16_384;
const ITEM_BATCH = 5_000;

export interface Movie {
  id: number;
  genre: string;
  year: number | undefined;
}

export function loadMovies(): Movie[] {
  const out: Movie[] = [];
  for (const line of csvLines('ml-latest-small/movies.csv')) {
    // movieId,title,genres: the title may be quoted and hold commas, genres never do.
    const first = line.indexOf(',');
    const last = line.lastIndexOf(',');
    const title = line
      .slice(first + 1, last)
      .replace(/^"(.*)"$/, '$1')
      .trim();
    const year = /\((\d{4})(?:[-–]\d{4})?\)$/.exec(title);
    out.push({ id: Number(line.slice(0, first)), genre: line.slice(last + 1).split('|')[0]!, year: year ? Number(year[1]) : undefined });
  }
  return out;
}

interface Rating {
  user_id: number;
  item_id: number;
  rating: number;
  timestamp: number;
}

function loadRatings(): Rating[] {
  const out: Rating[] = [];
  for (const line of csvLines('ml-latest-small/ratings.csv')) {
    const p = line.split(',');
    out.push({ user_id: Number(p[0]), item_id: Number(p[1]), rating: Number(p[2]) * 2, timestamp: Number(p[3]) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Set-up over HTTP

export interface Setup {
  itemsSeconds: number;
  ratingsSeconds: number;
  trained: Trained;
  movies: Map<number, Movie>;
  rated: Set<number>; // items `user` rated
  ratings: number;
  users: number;
}

export async function upload(base: string, token: string, factors: string, user: number): Promise<Setup> {
  const movies = loadMovies();
  const ratings = loadRatings();
  process.stderr.write(`ml-latest-small: ${movies.length} movies, ${ratings.length} ratings\n`);

  let t0 = performance.now();
  await ok(base, token, 'POST', '/v1/items-properties/', { property_name: 'genre', value_type: 'unicode32', repeated: false }, [200, 204]);
  await ok(base, token, 'POST', '/v1/items-properties/', { property_name: 'year', value_type: 'int16', repeated: false }, [200, 204]);
  for (let k = 0; k < movies.length; k += ITEM_BATCH) {
    const items = movies
      .slice(k, k + ITEM_BATCH)
      .map((m) => (m.year === undefined ? { item_id: m.id, genre: m.genre } : { item_id: m.id, genre: m.genre, year: m.year }));
    await ok(base, token, 'PUT', '/v1/items-bulk/properties/', { items }, [200, 202]);
  }
  const itemsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`items uploaded in ${itemsSeconds.toFixed(2)} s\n`);

  t0 = performance.now();
  for (let k = 0; k < ratings.length; k += BATCH) {
    await ok(base, token, 'PUT', '/v1/ratings-bulk/', { ratings: ratings.slice(k, k + BATCH) });
  }
  const ratingsSeconds = (performance.now() - t0) / 1000;
  process.stderr.write(`ratings uploaded in ${ratingsSeconds.toFixed(2)} s\n`);

  const trained = await retrain(base, token, factors, ratings.length);
  return {
    itemsSeconds,
    ratingsSeconds,
    trained,
    movies: new Map(movies.map((m) => [m.id, m])),
    rated: new Set(ratings.filter((r) => r.user_id === user).map((r) => r.item_id)),
    ratings: ratings.length,
    users: new Set(ratings.map((r) => r.user_id)).size,
  };
}

// The report's line on the data set.
export function dataLine(setup: Setup): string {
  return `ml-latest-small read in place: ${setup.ratings.toLocaleString('en-US')} ratings (× 2, so 1–10) of ${setup.users} users, ${setup.movies.size.toLocaleString('en-US')} items with \`genre\` (unicode32) and \`year\` (int16); items uploaded in ${setup.itemsSeconds.toFixed(2)} s (PUT items-bulk/properties/, ${ITEM_BATCH} a request), ratings in ${setup.ratingsSeconds.toFixed(2)} s (PUT ratings-bulk/, ${BATCH.toLocaleString('en-US')} a request, one client)`;
}
