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

  constructor(readonly threads: number) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000, // threads (and their heaps) go away between runs
    });
  }

  prepare = (input: PrepareInput): Promise<Prepared> => this.pool.run(input, { name: 'prepare' });
  gram = (input: GramInput): Promise<void> => this.pool.run(input, { name: 'gram' });
  halfStep = (input: HalfStepInput): Promise<void> => this.pool.run(input, { name: 'halfStep' });
  finish = (input: FinishInput): Promise<{ loss: number }> => this.pool.run(input, { name: 'finish' });
  itemLists = (input: ItemListsInput): Promise<void> => this.pool.run(input, { name: 'itemLists' });
  listHeads = (input: ListHeadsInput): Promise<number> => this.pool.run(input, { name: 'listHeads' });
  refineItemLists = (input: RefineListsInput): Promise<number> => this.pool.run(input, { name: 'refineItemLists' });
  coRatedLists = (input: CoRatedListsInput): Promise<number> => this.pool.run(input, { name: 'coRatedLists' });
  userLists = (input: UserListsInput): Promise<void> => this.pool.run(input, { name: 'userLists' });
  indexCentroids = (input: IndexCentroidsInput): Promise<void> => this.pool.run(input, { name: 'indexCentroids' });
  indexAssign = (input: IndexAssignInput): Promise<void> => this.pool.run(input, { name: 'indexAssign' });
  indexLists = (input: { model: SharedArrayBuffer; assign: SharedArrayBuffer }): Promise<void> => this.pool.run(input, { name: 'indexLists' });
  sharedRows = (input: { model: SharedArrayBuffer }): Promise<SharedRows> => this.pool.run(input, { name: 'sharedRows' });
  normOrder = (input: { model: SharedArrayBuffer }): Promise<NormOrder> => this.pool.run(input, { name: 'normOrder' });
  extend = (input: ExtendInput): Promise<Extended> => this.pool.run(input, { name: 'extend' });
  table = (input: TableInput): Promise<void> => this.pool.run(input, { name: 'table' });
  validationSplit = (input: SplitInput): Promise<ValidationData> => this.pool.run(input, { name: 'validationSplit' });
  confidence = (input: ConfidenceInput): Promise<Csr> => this.pool.run(input, { name: 'confidence' });
  trialModel = (input: TrialModelInput): Promise<SharedArrayBuffer> => this.pool.run(input, { name: 'trialModel' });
  refactor = (input: RefactorInput): Promise<SharedArrayBuffer> => this.pool.run(input, { name: 'refactor' });
  validate = (input: ValidateInput): Promise<Float64Array> => this.pool.run(input, { name: 'validate' });
  easeColumns = (input: { byItem: Csr; maxItems: number; minCount: number }): Promise<EaseColumns> => this.pool.run(input, { name: 'easeColumns' });
  weighRatings = (input: { m: Csr; weighting: EaseWeighting }): Promise<Csr> => this.pool.run(input, { name: 'weighRatings' });
  easeGram = (input: { m: Csr; cols: EaseColumns; dst: SharedArrayBuffer; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, { name: 'easeGram' });
  easePivot = (input: SweepInput): Promise<boolean> => this.pool.run(input, { name: 'easePivot' });
  easeUpdate = (input: SweepInput & { rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, { name: 'easeUpdate' });
  easeWeights = (input: { p: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, { name: 'easeWeights' });
  popularUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer }): Promise<void> => this.pool.run(input, { name: 'popularUserLists' });
  knnWeights = (input: { gram: SharedArrayBuffer; dst: SharedArrayBuffer; n: number; k: number; rowStart: number; rowEnd: number }): Promise<void> => this.pool.run(input, { name: 'knnWeights' });
  easeValidate = (input: { weights: SharedArrayBuffer; cols: EaseColumns; train: Csr; held: HeldOut; from: number; to: number; k: number; blend?: Blend | undefined }): Promise<Float64Array> => this.pool.run(input, { name: 'easeValidate' });
  easeUserLists = (input: { model: SharedArrayBuffer; byUser: Csr; weights: SharedArrayBuffer; cols: EaseColumns; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer; alsWeight: number }): Promise<void> => this.pool.run(input, { name: 'easeUserLists' });

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
