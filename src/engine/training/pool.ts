// The Piscina pool training runs on, separate from request handling: a run only awaits its tasks,
// so the event loop stays free while every core trains.
import { Piscina } from 'piscina';
import type { NormOrder } from '../../../native-free-kernels/lists.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { ConfidenceInput, RefactorInput, SplitInput, TableInput, TrialModelInput, ValidateInput, ValidationData } from './tasks.js';
import type { Blend, EaseColumns, EaseWeighting, SweepInput } from './item-weights-tasks.js';
import type { HeldOut } from '../../../native-free-kernels/validation.js';
import type { Extended, ExtendInput, FinishInput, GramInput, HalfStepInput, IndexAssignInput, IndexCentroidsInput, ItemListsInput, ListHeadsInput, RefineListsInput, CoRatedListsInput, UserListsInput, PrepareInput, Prepared } from './tasks.js';

export class TrainingPool {
  private readonly pool: Piscina;
  private closed = false;

  constructor(readonly threads: number) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000, // threads (and their heaps) go away between runs
    });
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
  normOrder = (input: { model: SharedArrayBuffer }): Promise<NormOrder> => this.run(input, 'normOrder');
  extend = (input: ExtendInput): Promise<Extended> => this.run(input, 'extend');
  table = (input: TableInput): Promise<void> => this.run(input, 'table');
  validationSplit = (input: SplitInput): Promise<ValidationData> => this.run(input, 'validationSplit');
  confidence = (input: ConfidenceInput): Promise<Csr> => this.run(input, 'confidence');
  trialModel = (input: TrialModelInput): Promise<SharedArrayBuffer> => this.run(input, 'trialModel');
  refactor = (input: RefactorInput): Promise<SharedArrayBuffer> => this.run(input, 'refactor');
  validate = (input: ValidateInput): Promise<Float64Array> => this.run(input, 'validate');
  easeColumns = (input: { byItem: Csr; maxItems: number; minCount: number }): Promise<EaseColumns> => this.run(input, 'easeColumns');
  weighRatings = (input: { m: Csr; weighting: EaseWeighting }): Promise<Csr> => this.run(input, 'weighRatings');
  easeGram = (input: { m: Csr; cols: EaseColumns; dst: SharedArrayBuffer; rowStart: number; rowEnd: number }): Promise<void> => this.run(input, 'easeGram');
  easePivot = (input: SweepInput): Promise<boolean> => this.run(input, 'easePivot');
  easeUpdate = (input: SweepInput & { rowStart: number; rowEnd: number }): Promise<void> => this.run(input, 'easeUpdate');
  easeWeights = (input: { p: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; rowStart: number; rowEnd: number }): Promise<void> => this.run(input, 'easeWeights');
  popularUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer }): Promise<void> => this.run(input, 'popularUserLists');
  knnWeights = (input: { gram: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; k: number; rowStart: number; rowEnd: number }): Promise<void> => this.run(input, 'knnWeights');
  easeValidate = (input: { weights: SharedArrayBuffer; cols: EaseColumns; train: Csr; held: HeldOut; from: number; to: number; k: number; blend?: Blend | undefined }): Promise<Float64Array> => this.run(input, 'easeValidate');
  easeUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; weights: SharedArrayBuffer; cols: EaseColumns; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer; alsWeight: number }): Promise<void> => this.run(input, 'easeUserLists');

  // piscina's destroy leaves the pool usable (a later run starts threads again): a run still taking
  // blocks when recd stops would keep a thread, and the process, alive after the stop.
  private run<T>(input: unknown, name: string): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the training pool is closed'));
    return this.pool.run(input, { name });
  }

  close(): Promise<void> {
    this.closed = true;
    return this.pool.destroy();
  }
}
