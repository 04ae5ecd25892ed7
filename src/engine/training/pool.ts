// The worker pool training runs on (worker-pool.ts), separate from request handling: a run only awaits its tasks,
// so the event loop stays free while every core trains.
import { WorkerPool } from '../worker-pool.js';
import type { NormOrder } from '../../../native-free-kernels/lists.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { ConfidenceInput, RefactorInput, SplitInput, TableInput, TrialModelInput, ValidateInput, ValidationData } from './tasks.js';
import type { Blend, EaseColumns, EaseWeighting, SweepInput } from './item-weights-tasks.js';
import type { HeldOut } from '../../../native-free-kernels/validation.js';
import type { Extended, ExtendInput, FinishInput, GramInput, HalfStepInput, IndexAssignInput, IndexCentroidsInput, ItemListsInput, ListHeadsInput, RefineListsInput, CoRatedListsInput, UserListsInput, PrepareInput, Prepared } from './tasks.js';

export class TrainingPool {
  private readonly pool: WorkerPool;

  constructor(readonly threads: number) {
    // Idle for 30 s, a thread (and its heap) goes: between runs.
    this.pool = new WorkerPool('training', new URL('./worker.js', import.meta.url), threads, 30_000);
  }

  prepare = (input: PrepareInput): Promise<Prepared> => this.pool.run(input, 'prepare');
  gram = (input: GramInput): Promise<void> => this.pool.run(input, 'gram');
  halfStep = (input: HalfStepInput): Promise<void> => this.pool.run(input, 'halfStep');
  finish = (input: FinishInput): Promise<{ loss: number }> => this.pool.run(input, 'finish');
  itemLists = (input: ItemListsInput): Promise<void> => this.pool.run(input, 'itemLists');
  listHeads = (input: ListHeadsInput): Promise<number> => this.pool.run(input, 'listHeads');
  refineItemLists = (input: RefineListsInput): Promise<number> => this.pool.run(input, 'refineItemLists');
  coRatedLists = (input: CoRatedListsInput): Promise<number> => this.pool.run(input, 'coRatedLists');
  userLists = (input: UserListsInput): Promise<void> => this.pool.run(input, 'userLists');
  indexCentroids = (input: IndexCentroidsInput): Promise<void> => this.pool.run(input, 'indexCentroids');
  indexAssign = (input: IndexAssignInput): Promise<void> => this.pool.run(input, 'indexAssign');
  indexLists = (input: { model: SharedArrayBuffer; assign: SharedArrayBuffer }): Promise<void> => this.pool.run(input, 'indexLists');
  sharedRows = (input: { model: SharedArrayBuffer }): Promise<SharedRows> => this.pool.run(input, 'sharedRows');
  normOrder = (input: { model: SharedArrayBuffer }): Promise<NormOrder> => this.pool.run(input, 'normOrder');
  extend = (input: ExtendInput): Promise<Extended> => this.pool.run(input, 'extend');
  table = (input: TableInput): Promise<void> => this.pool.run(input, 'table');
  validationSplit = (input: SplitInput): Promise<ValidationData> => this.pool.run(input, 'validationSplit');
  confidence = (input: ConfidenceInput): Promise<Csr> => this.pool.run(input, 'confidence');
  trialModel = (input: TrialModelInput): Promise<SharedArrayBuffer> => this.pool.run(input, 'trialModel');
  refactor = (input: RefactorInput): Promise<SharedArrayBuffer> => this.pool.run(input, 'refactor');
  validate = (input: ValidateInput): Promise<Float64Array> => this.pool.run(input, 'validate');
  easeColumns = (input: { byItem: Csr; maxItems: number; minCount: number }): Promise<EaseColumns> => this.pool.run(input, 'easeColumns');
  weighRatings = (input: { m: Csr; weighting: EaseWeighting }): Promise<Csr> => this.pool.run(input, 'weighRatings');
  easeGram = (input: { m: Csr; cols: EaseColumns; dst: SharedArrayBuffer; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, 'easeGram');
  easePivot = (input: SweepInput): Promise<boolean> => this.pool.run(input, 'easePivot');
  easeUpdate = (input: SweepInput & { rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, 'easeUpdate');
  easeWeights = (input: { p: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, 'easeWeights');
  popularUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer }): Promise<void> => this.pool.run(input, 'popularUserLists');
  knnWeights = (input: { gram: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; k: number; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, 'knnWeights');
  easeValidate = (input: { weights: SharedArrayBuffer; cols: EaseColumns; train: Csr; held: HeldOut; from: number; to: number; k: number; blend?: Blend | undefined }): Promise<Float64Array> => this.pool.run(input, 'easeValidate');
  easeUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; weights: SharedArrayBuffer; cols: EaseColumns; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer; alsWeight: number }): Promise<void> => this.pool.run(input, 'easeUserLists');

  close(): Promise<void> {
    return this.pool.close();
  }
}
