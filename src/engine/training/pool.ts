// The worker pool training runs on (worker-pool.ts), separate from request handling: a run only awaits its tasks,
// so the event loop stays free while every core trains.
import { WorkerPool } from '../worker-pool.js';
import { FairShare } from './fair-share.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { ConfidenceInput, RefactorInput, SplitInput, TableInput, TrialModelInput, ValidateInput, ValidationData } from './tasks.js';
import type { Blend, EaseColumns, EaseWeighting, SweepInput } from './item-weights-tasks.js';
import type { HeldOut } from '../../../native-free-kernels/validation.js';
import type {
  Extended,
  ExtendInput,
  FinishInput,
  GramInput,
  HalfStepInput,
  IndexAssignInput,
  IndexCentroidsInput,
  ItemListsInput,
  ListHeadsInput,
  RefineListsInput,
  CoRatedListsInput,
  UserListsInput,
  PrepareInput,
  Prepared,
} from './tasks.js';

// A run's task asked for after its deadline (the database's training time quota).
export class RunOverTime extends Error {
  override name = 'RunOverTime';
}

export class TrainingPool {
  private readonly pool: WorkerPool;
  private readonly share: FairShare;
  // This view's tasks are one run's in the fair share (until() makes one view per run).
  private readonly key = {};

  // nice: the threads' CPU priority (engine/thread-priority.ts). deadline: performance.now() past
  // which this view takes no task (until()).
  constructor(
    readonly threads: number,
    nice = 0,
    shared?: { pool: WorkerPool; share: FairShare },
    private readonly deadline = Infinity,
    private readonly overTime = '',
  ) {
    // Idle for 30 s, a thread (and its heap) goes: between runs.
    this.pool = shared?.pool ?? new WorkerPool('training', new URL('./worker.js', import.meta.url), threads, 30_000, { nice });
    this.share = shared?.share ?? new FairShare(threads);
  }

  // The same threads, for one run that may last `ms`: a task asked for after that is refused with
  // RunOverTime (`why`), so the run ends at its next task. A run's tasks are blocks of bounded work,
  // so it stops within one block of its time.
  until(ms: number, why: string): TrainingPool {
    return new TrainingPool(this.threads, 0, { pool: this.pool, share: this.share }, performance.now() + ms, why);
  }

  private run<T>(input: unknown, name: string): Promise<T> {
    if (performance.now() > this.deadline) return Promise.reject(new RunOverTime(this.overTime));
    return this.share.run(this.key, () => this.pool.run<T>(input, name));
  }

  prepare = (input: PrepareInput): Promise<Prepared> => this.run(input, 'prepare');
  gram = (input: GramInput): Promise<void> => this.run(input, 'gram');
  halfStep = (input: HalfStepInput): Promise<void> => this.run(input, 'halfStep');
  finish = (input: FinishInput): Promise<{ loss: number }> => this.run(input, 'finish');
  itemLists = (input: ItemListsInput): Promise<void> => this.run(input, 'itemLists');
  listHeads = (input: ListHeadsInput): Promise<number> => this.run(input, 'listHeads');
  refineItemLists = (input: RefineListsInput): Promise<number> => this.run(input, 'refineItemLists');
  coRatedLists = (input: CoRatedListsInput): Promise<number> => this.run(input, 'coRatedLists');
  userLists = (input: UserListsInput): Promise<void> => this.run(input, 'userLists');
  indexCentroids = (input: IndexCentroidsInput): Promise<void> => this.run(input, 'indexCentroids');
  indexAssign = (input: IndexAssignInput): Promise<void> => this.run(input, 'indexAssign');
  indexLists = (input: { model: SharedArrayBuffer; assign: SharedArrayBuffer }): Promise<void> => this.run(input, 'indexLists');
  sharedRows = (input: { model: SharedArrayBuffer }): Promise<SharedRows> => this.run(input, 'sharedRows');
  extend = (input: ExtendInput): Promise<Extended> => this.run(input, 'extend');
  table = (input: TableInput): Promise<void> => this.run(input, 'table');
  validationSplit = (input: SplitInput): Promise<ValidationData> => this.run(input, 'validationSplit');
  confidence = (input: ConfidenceInput): Promise<Csr> => this.run(input, 'confidence');
  trialModel = (input: TrialModelInput): Promise<SharedArrayBuffer> => this.run(input, 'trialModel');
  refactor = (input: RefactorInput): Promise<SharedArrayBuffer> => this.run(input, 'refactor');
  validate = (input: ValidateInput): Promise<Float64Array> => this.run(input, 'validate');
  easeColumns = (input: { byItem: Csr; maxItems: number; minCount: number }): Promise<EaseColumns> => this.run(input, 'easeColumns');
  weighRatings = (input: { m: Csr; weighting: EaseWeighting }): Promise<Csr> => this.run(input, 'weighRatings');
  easeGram = (input: {
    m: Csr;
    cols: EaseColumns;
    dst: SharedArrayBuffer | WebAssembly.Memory;
    rowStart: number;
    rowEnd: number;
  }): Promise<void> => this.run(input, 'easeGram');
  easePivot = (input: SweepInput): Promise<boolean> => this.run(input, 'easePivot');
  easeUpdate = (input: SweepInput & { rowStart: number; rowEnd: number }): Promise<void> => this.run(input, 'easeUpdate');
  easeWeights = (input: {
    p: SharedArrayBuffer | WebAssembly.Memory;
    dst: SharedArrayBuffer;
    n: number;
    rowStart: number;
    rowEnd: number;
  }): Promise<void> => this.run(input, 'easeWeights');
  popularUserLists = (input: {
    model: SharedArrayBuffer;
    byUser: Csr;
    users: SharedArrayBuffer;
    from: number;
    to: number;
    out: SharedArrayBuffer;
  }): Promise<void> => this.run(input, 'popularUserLists');
  knnWeights = (input: {
    gram: SharedArrayBuffer;
    dst: SharedArrayBuffer;
    n: number;
    k: number;
    rowStart: number;
    rowEnd: number;
  }): Promise<void> => this.run(input, 'knnWeights');
  easeValidate = (input: {
    weights: SharedArrayBuffer;
    cols: EaseColumns;
    train: Csr;
    held: HeldOut;
    from: number;
    to: number;
    k: number;
    blend?: Blend | undefined;
  }): Promise<Float64Array> => this.run(input, 'easeValidate');
  easeUserLists = (input: {
    model: SharedArrayBuffer;
    byUser: Csr;
    weights: SharedArrayBuffer;
    cols: EaseColumns;
    users: SharedArrayBuffer;
    from: number;
    to: number;
    out: SharedArrayBuffer;
    alsWeight: number;
  }): Promise<void> => this.run(input, 'easeUserLists');

  close(): Promise<void> {
    return this.pool.close();
  }
}
