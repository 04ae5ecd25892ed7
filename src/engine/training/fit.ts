// The ALS fit itself: alternating half-steps over shared factor buffers, each split into a few row
// ranges per pool thread. Training runs (trainer.ts) and search trials (search.ts) both use it.
import type { Csr } from '../../../native-free-kernels/csr.js';
import { sumTo } from '../../../native-free-kernels/linalg.js';
import { modelViews } from '../model/layout.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams } from './tasks.js';
import { evenRanges, ranges } from './ranges.js';

// Parts of a pass per thread: the threads are shared with other databases' runs in turns of one task
// (fair-share.ts), so a part is what another run may wait for; four keep a part of a 20M-rating
// half-step under a second at a few ms of set-up each.
const PARTS_PER_THREAD = 4;

/**
 * p.iterations of alternating half-steps on the model's factors (as initialised), each split into
 * PARTS_PER_THREAD row ranges per thread, then one more users' half-step: it makes the users' factors the best
 * fit to the final item factors, which is what folding a user's ratings in gives (serving ranks
 * users unchanged since training by these factors).
 */
export async function fitFactors(
  pool: TrainingPool,
  model: SharedArrayBuffer,
  byUser: Csr,
  byItem: Csr,
  p: AlsParams,
  iteration: (it: number) => void = () => {},
): Promise<void> {
  const dims = modelViews(model).dims;
  const f = dims.factors;
  const gram = new SharedArrayBuffer(f * f * 8);
  const n = pool.threads * PARTS_PER_THREAD;
  const split = (rows: number, m: Csr) => ranges(rows, m, n, f);
  const userParts = split(dims.users, byUser);
  const itemParts = split(dims.items, byItem);
  // The Gram matrix of one side as the sum of its parts'.
  const parts = Array.from({ length: n }, () => new SharedArrayBuffer(f * f * 8));
  const gramOf = async (side: 'users' | 'items') => {
    const rows = evenRanges(side === 'users' ? dims.users : dims.items, n);
    await Promise.all(rows.map(([rowStart, rowEnd], k) => pool.gram({ model, side, rowStart, rowEnd, dst: parts[k]! })));
    sumTo(
      new Float64Array(gram),
      rows.map((_, k) => new Float64Array(parts[k]!)),
    );
  };
  const users = async () => {
    await gramOf('items');
    await Promise.all(
      userParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'users', m: byUser, gram, rowStart, rowEnd, params: p })),
    );
  };
  for (let it = 1; it <= p.iterations; it++) {
    iteration(it);
    await users();
    await gramOf('users');
    await Promise.all(
      itemParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'items', m: byItem, gram, rowStart, rowEnd, params: p })),
    );
  }
  await users();
}
