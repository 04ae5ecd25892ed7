// Replay before rollout (POST analytics/replay/): the answers recorded in a window are asked again with a
// candidate scenario, and for the interactions that followed each answer, the candidate's top k is scored
// against what was shown (hit rate and NDCG@k, both ways, with 95 % intervals). It runs in the process
// that was asked, as an analytics_replay task with progress, a page of answers at a time, for at most
// REPLAY_SECONDS; its result is kept a week.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Claims } from '../../contract/claims.js';
import type { RecoType } from '../../contract/reco-types.js';
import { notFound, wrongData } from '../../errors/api-error.js';
import type { InteractionsStore } from '../../store/interactions-store.js';
import { readLuaFrame, type LuaValue } from '../../store/lua.js';
import { pack, unpack } from '../../store/msgpack-values.js';
import type { OutcomesStore } from '../../store/outcomes-store.js';
import { REPLAY_TASK, type TaskRecord, type TasksStore } from '../../store/tasks-store.js';
import type { RecommendService } from '../reco/recommend.js';
import type { RecoQuery } from '../reco/request/request.js';
import type { CaseRules } from '../scenarios/scenario-walk.js';
import type { ScenarioService } from '../scenarios/scenarios.js';
import { groupParts } from './outcome-counts.js';
import { wilson } from './outcome-stats.js';

export const REPLAY_TYPES = ['item_to_items', 'profile_to_items'] as const;
const REPLAY_SECONDS = 120;
const RESULT_SECONDS = 7 * 86_400;
const BATCHES_PER_PAGE = 20;
// A user's interactions read, at most (the first this many the store holds).
const INTERACTIONS_READ = 10_000;
const Z95 = 1.959963984540054;

export interface ReplayAsk {
  recoType: (typeof REPLAY_TYPES)[number];
  scenario?: string;
  case?: CaseRules;
  start: number; // seconds
  end: number;
  k: number;
  types?: string[]; // interaction types that count (all when undefined)
  answers: number; // replayed at most
}

interface Side {
  hits: number;
  ndcg: number[];
}

export class Replays {
  constructor(
    private readonly outcomes: OutcomesStore,
    private readonly tasks: TasksStore,
    private readonly interactions: Pick<InteractionsStore, 'own'>,
    private readonly scenarios: Pick<ScenarioService, 'get'>,
    private readonly reco: Pick<RecommendService, 'unrecorded'>,
    private readonly windowMs: number,
    private readonly logger: Logger,
  ) {}

  // Checks the ask, records the task QUEUED and starts it; its id.
  async start(auth: Claims, db: string, ask: ReplayAsk): Promise<{ task_id: string }> {
    if (ask.scenario !== undefined && ask.case !== undefined)
      throw wrongData('WRONG_PARAMETER', 'give the candidate as scenario or as case, not both', { field: 'case' });
    if (ask.scenario !== undefined) await this.scenarios.get(db, ask.recoType, ask.scenario);
    if (!(ask.start < ask.end))
      throw wrongData('WRONG_PARAMETER', 'start_timestamp must be before end_timestamp', { field: 'start_timestamp' });
    const task: TaskRecord = {
      task_id: randomUUID(),
      name: REPLAY_TASK,
      start_time: Date.now() / 1000,
      end_time: null,
      status: 'RUNNING',
      progress: '0 answers replayed',
      error: null,
    };
    await this.tasks.put(db, task);
    void this.run(auth, db, ask, task);
    return { task_id: task.task_id };
  }

  async read(db: string, id: string) {
    const task = await this.tasks.get(db, id);
    if (!task || task.name !== REPLAY_TASK) throw notFound('TASK_NOT_FOUND', 'task', id, `no replay ${JSON.stringify(id)}`);
    const result = unpack<Record<string, unknown>>(await this.outcomes.replayOf(db, id)) ?? null;
    return { ...task, result, warnings: [] as string[] };
  }

  private async run(auth: Claims, db: string, ask: ReplayAsk, task: TaskRecord): Promise<void> {
    const started = Date.now();
    const live: Side = { hits: 0, ndcg: [] };
    const candidate: Side = { hits: 0, ndcg: [] };
    let seen = 0;
    let cut = false;
    const followed = new Map<string, { item: string; type: string; at: number }[]>();
    try {
      pages: for (let offset = 0; ; offset += BATCHES_PER_PAGE) {
        const page = await this.outcomes.batchesBetween(db, ask.start * 1000, ask.end * 1000, offset, BATCHES_PER_PAGE);
        if (page.length === 0) break;
        for (const [, blob] of page) {
          for (const a of readLuaFrame(blob) as LuaValue[][]) {
            if (seen >= ask.answers || Date.now() - started > REPLAY_SECONDS * 1000) {
              cut = true;
              break pages;
            }
            const answer = answerOf(a);
            if (answer.recoType !== ask.recoType || answer.from !== 0 || !answer.viewer.startsWith('u:')) continue;
            const user = answer.viewer.slice(2);
            let own = followed.get(user);
            if (own === undefined) followed.set(user, (own = await this.interactionsOf(db, user)));
            const after = new Set(
              own
                .filter(
                  (i) => i.at >= answer.t && i.at <= answer.t + this.windowMs && (ask.types === undefined || ask.types.includes(i.type)),
                )
                .map((i) => i.item),
            );
            if (after.size === 0) continue;
            seen++;
            score(live, answer.items.slice(0, ask.k), after, ask.k);
            score(candidate, await this.candidate(auth, db, ask, user, answer.context), after, ask.k);
          }
        }
        await this.tasks.put(db, { ...task, progress: `${seen} answers replayed` });
      }
      const result = {
        reco_type: ask.recoType,
        candidate: ask.scenario !== undefined ? { scenario: ask.scenario } : { case: ask.case ?? {} },
        start_timestamp: ask.start,
        end_timestamp: ask.end,
        k: ask.k,
        answers_replayed: seen,
        complete: !cut,
        live: summary(live, seen),
        candidate_result: summary(candidate, seen),
      };
      await this.outcomes.putReplay(db, task.task_id, pack(result), RESULT_SECONDS);
      await this.tasks.put(db, {
        ...task,
        status: 'COMPLETED',
        end_time: Date.now() / 1000,
        progress: `${seen} answers replayed${cut ? ` (stopped at ${ask.answers.toLocaleString('en-US')} answers or ${REPLAY_SECONDS} s)` : ''}`,
      });
    } catch (err) {
      this.logger.warn({ err, db, task: task.task_id }, 'replay failed');
      await this.tasks
        .put(db, { ...task, status: 'FAILED', end_time: Date.now() / 1000, error: err instanceof Error ? err.message : String(err) })
        .catch(() => undefined);
    }
  }

  private async interactionsOf(db: string, user: string) {
    const { list } = await this.interactions.own(db, 'user', user, 0, INTERACTIONS_READ);
    return list.map((i) => ({ item: i.item, type: i.type, at: i.timestamp * 1000 }));
  }

  // The candidate's top k for the answer's user (or item, with the user as user_id), as recd would answer now.
  private async candidate(auth: Claims, db: string, ask: ReplayAsk, user: string, context: string): Promise<string[]> {
    const q: RecoQuery = {
      amt: ask.k,
      skipDefault: true,
      ...(ask.scenario !== undefined ? { scenario: ask.scenario } : runtimeOf(ask.case)),
    };
    const recoType: RecoType = ask.recoType;
    const r =
      ask.recoType === 'item_to_items'
        ? await this.reco.unrecorded({ auth, db, recoType, q: { ...q, userId: user }, item: context })
        : await this.reco.unrecorded({ auth, db, recoType, q, user, context: undefined });
    return r.items_id.map(String);
  }
}

// An inline case as the request's own parameters.
function runtimeOf(c: CaseRules | undefined): RecoQuery {
  if (!c) return {};
  return {
    filters: c.filters ?? undefined,
    reranking: c.reranking ?? undefined,
    excludeRated: c.exclude_rated_items ?? undefined,
    rotationRate: c.rotation_rate ?? undefined,
    rotationHours: c.rotation_hours ?? undefined,
  };
}

function answerOf(a: LuaValue[]) {
  const text = (v: LuaValue | undefined) => (v instanceof Uint8Array ? Buffer.from(v).toString() : String(v ?? ''));
  return {
    t: Number(text(a[1])),
    recoType: groupParts(text(a[2])).recoType,
    viewer: text(a[3]),
    context: text(a[4]),
    items: ((a[5] as LuaValue[]) ?? []).map(text),
    from: Number(a[6] ?? 0),
  };
}

// A hit when any of the top k followed; NDCG@k with each followed item relevant.
function score(side: Side, top: string[], after: Set<string>, k: number): void {
  let dcg = 0;
  top.slice(0, k).forEach((item, p) => {
    if (after.has(item)) dcg += 1 / Math.log2(p + 2);
  });
  let ideal = 0;
  for (let p = 0; p < Math.min(after.size, k); p++) ideal += 1 / Math.log2(p + 2);
  if (dcg > 0) side.hits++;
  side.ndcg.push(ideal === 0 ? 0 : dcg / ideal);
}

function summary(side: Side, n: number) {
  const hit = wilson(side.hits, n);
  const mean = n === 0 ? 0 : side.ndcg.reduce((a, b) => a + b, 0) / n;
  const sd = n < 2 ? 0 : Math.sqrt(side.ndcg.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = n === 0 ? 0 : (Z95 * sd) / Math.sqrt(n);
  return {
    hit_rate: hit.rate,
    hit_rate_interval: hit.interval,
    ndcg: n === 0 ? null : mean,
    ndcg_interval: n === 0 ? null : ([Math.max(0, mean - half), Math.min(1, mean + half)] as [number, number]),
  };
}
