// Published models: metadata per model, the buffer of the last few, the database's current model,
// and the announcement every process listens to.
import type { Connection } from './redis.js';
import { partCount, partOf, PART_BYTES, readParts, writeParts, type Bytes } from './blob-parts.js';
import { keys } from './keys.js';
import { pack, unpack } from './msgpack-values.js';

export interface ModelMeta {
  model_id: string;
  timestamp: number; // seconds
  // `<lists>+als`: users' lists from that model (the search's choice), all else from ALS's factors.
  algorithm: 'als' | `${'ease' | 'item-knn' | 'popularity'}+als` | `${'' | 'ease+' | 'item-knn+' | 'popularity+'}als+new-items`;
  n_users: number;
  n_items: number;
  n_ratings: number;
  factors: number;
  item_list: number; // length of each item's precomputed list
  user_list: number; // of each user's
  bytes: number;
  metrics: Record<string, number>;
  params: Record<string, number>;
  search?: SearchSummary; // the parameter search that chose params (this run's or an earlier one's)
  ratings_log_id?: string; // the ratings log entry its data end at (models before 2026-11-26: unknown)
  parts?: number; // Redis strings the buffer is stored in (absent: one)
}

// What a training's parameter search (engine/training/search.ts) tried and chose, published with its model.
export interface Quality {
  ndcg_at_10: number;
  recall_at_10: number;
}

// One candidate the search fitted and scored: implicit ALS (its objective's parameters) or EASE.
export type Trial = AlsTrial | EaseTrial | KnnTrial | PopularityTrial;

interface TrialCommon extends Quality {
  seconds: number;
  second_split_ndcg_at_10?: number; // for the leaders re-fitted on a second split
}

export interface AlsTrial extends TrialCommon {
  model: 'als';
  factors: number;
  regularization: number;
  alpha: number;
  unobserved: number;
  reg_exponent: number;
  rating_shift: number;
  rating_floor: number;
}

export interface EaseTrial extends TrialCommon {
  model: 'ease';
  items: number; // the most rated items it covers
  lambda: number;
  lambda_scale: number; // λ ÷ the mean of the weighted Gram matrix's diagonal (what carries to the full data)
  weight_cut: number; // ratings valued at least this weigh 1
  weight_below: number; // the others this
  weight_by_quantile: boolean; // instead: each rating weighs its quantile among all ratings
  als_weight?: number; // a blend: the standardised scores of the ALS trial `als_trial` added with this weight
  als_trial?: number;
}

export interface KnnTrial extends TrialCommon {
  model: 'item-knn';
  items: number;
  neighbours: number; // each item's most similar items kept
  weight_cut: number;
  weight_below: number;
  weight_by_quantile: boolean;
  als_weight?: number;
  als_trial?: number;
}

// Training rating counts (no fit: the same scores as `popularity`).
export interface PopularityTrial extends TrialCommon {
  model: 'popularity';
}

export interface SearchSummary {
  at: number; // seconds since the epoch
  ratings: number; // of the database when searched
  sampled_ratings: number; // trials trained on
  validation_users: number;
  relevant_from: number; // held-out values counted as liked are at least this
  seconds: number;
  budget_seconds?: number; // what the data allowed it (searches before the budget grew with the data have none)
  ended?: 'trials' | 'budget' | 'no gain'; // why ALS's trials ended: the most trials, the budget, or validation stopped improving
  trials: Trial[];
  chosen: number; // index in trials: the model serving users' lists
  chosen_als: number; // index in trials: the ALS parameters the model's factors have (the same as chosen unless EASE won)
  popularity: Quality;
}

const KEEP_BUFFERS = 2;
const KEEP_META = 50;

// KEYS: trainer lock, models, order, current, blob, models being written, then the parts of the
// publications cut short to reclaim. ARGV: lock owner, id, meta, ms, buffer, then the ids of those
// publications. Refused (0) unless the caller still holds the trainer lock: only a holder of the lock
// writes parts (WRITE_PART), so every other model listed as being written belongs to an earlier holder
// that died or lost the lock, and can add no part after this.
const PUBLISH = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[5], ARGV[5])
redis.call('HDEL', KEYS[6], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
redis.call('SET', KEYS[4], ARGV[2])
for k = 7, #KEYS do redis.call('UNLINK', KEYS[k]) end
for a = 6, #ARGV do redis.call('HDEL', KEYS[6], ARGV[a]) end
return 1
`;

// KEYS: trainer lock, part. ARGV: lock owner, bytes. Written only while the caller holds the lock.
const WRITE_PART = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1
`;

export class ModelsStore {
  constructor(private readonly redis: Connection) {}

  // Parts after the first are written before the script that makes the model current (which writes
  // the first): a model is current only once all of it is stored. Meanwhile the model is listed as
  // being written, so that deleting the database finds its parts should this process die; the next
  // publication (by whichever process then holds the trainer lock) reclaims them too.
  async publish(db: string, lockOwner: string, meta: ModelMeta, buffer: Bytes, partBytes = PART_BYTES): Promise<boolean> {
    const parts = partCount(buffer.byteLength, partBytes);
    if (parts > 1) meta = { ...meta, parts };
    const partKey = (k: number) => keys.modelPart(db, meta.model_id, k);
    const lock = keys.trainerLock(db);
    const put = async (key: string, part: Buffer) => (await this.redis.eval(WRITE_PART, 2, lock, key, lockOwner, part)) === 1;
    if (parts > 1) await this.redis.hset(keys.modelsWriting(db), meta.model_id, parts);
    const cutShort = Object.entries(await this.redis.hgetall(keys.modelsWriting(db))).filter(([id]) => id !== meta.model_id);
    const written = await writeParts(this.redis, partKey, buffer, 1, partBytes, put);
    const ok =
      written
      && (await this.redis.eval(
        PUBLISH,
        6 + cutShort.reduce((n, [, p]) => n + laterParts(p), 0),
        lock,
        keys.models(db),
        keys.modelOrder(db),
        keys.currentModel(db),
        keys.modelBlob(db, meta.model_id),
        keys.modelsWriting(db),
        ...cutShort.flatMap(([id, p]) => partKeys(db, id, laterParts(p) + 1).slice(1)),
        lockOwner,
        meta.model_id,
        pack(meta),
        Math.round(meta.timestamp * 1000),
        partOf(buffer, 0, partBytes),
        ...cutShort.map(([id]) => id),
      )) === 1;
    if (!ok) {
      if (parts > 1)
        await this.redis
          .multi()
          .unlink(...partKeys(db, meta.model_id, parts).slice(1))
          .hdel(keys.modelsWriting(db), meta.model_id)
          .exec();
      return false;
    }
    await this.trim(db);
    await this.redis.publish(keys.modelsChannel(), `${db} ${meta.model_id}`);
    return true;
  }

  async current(db: string): Promise<string | undefined> {
    return (await this.redis.get(keys.currentModel(db))) ?? undefined;
  }

  // The model's buffer, read one part at a time into shared memory (undefined once trimmed).
  async buffer(db: string, meta: ModelMeta): Promise<SharedArrayBuffer | undefined> {
    const out = new SharedArrayBuffer(meta.bytes);
    return readParts(this.redis, partKeys(db, meta.model_id, meta.parts ?? 1), out);
  }

  async meta(db: string, id: string): Promise<ModelMeta | undefined> {
    return unpack<ModelMeta>(await this.redis.hgetBuffer(keys.models(db), id));
  }

  // Newest first.
  async list(db: string, amt: number): Promise<ModelMeta[]> {
    const ids = await this.redis.zrevrange(keys.modelOrder(db), 0, amt - 1);
    if (ids.length === 0) return [];
    const blobs = await this.redis.hmgetBuffer(keys.models(db), ...ids);
    return blobs.map((b) => unpack<ModelMeta>(b)).filter((m): m is ModelMeta => m !== undefined);
  }

  // Buffers beyond the last few and metadata beyond the last many are dropped.
  private async trim(db: string): Promise<void> {
    const ids = await this.redis.zrevrange(keys.modelOrder(db), 0, -1);
    const noBuffer = ids.slice(KEEP_BUFFERS);
    const noMeta = ids.slice(KEEP_META);
    const metas = noBuffer.length > 0 ? await this.redis.hmgetBuffer(keys.models(db), ...noBuffer) : [];
    const tx = this.redis.multi();
    noBuffer.forEach((id, k) => tx.unlink(...partKeys(db, id, unpack<ModelMeta>(metas[k])?.parts ?? 1)));
    if (noMeta.length > 0) tx.hdel(keys.models(db), ...noMeta).zrem(keys.modelOrder(db), ...noMeta);
    await tx.exec();
  }
}

// Parts after the first of a model listed as being written with `parts` parts (none for a bad entry).
function laterParts(parts: string): number {
  const n = Number(parts);
  return Number.isInteger(n) && n > 1 ? n - 1 : 0;
}

const partKeys = (db: string, id: string, parts: number): string[] =>
  Array.from({ length: parts }, (_, k) => (k === 0 ? keys.modelBlob(db, id) : keys.modelPart(db, id, k)));
