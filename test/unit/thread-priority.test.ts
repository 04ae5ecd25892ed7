// The training pool's threads lower their own CPU priority (engine/thread-priority.ts), and only
// theirs: the process, and so the event loop and the scoring threads, keeps its own.
import t from 'tap';
import os from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { TrainingPool } from '../../src/engine/training/pool.js';

// The nice value of each thread of this process (field 19 of /proc/<pid>/task/<tid>/stat).
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

t.test('training threads run at the nice value given, the rest of the process at its own', async (t) => {
  const own = os.getPriority();
  t.notOk(threadNices().includes(7), 'no thread at 7 before the pool starts one');
  const pool = new TrainingPool(1, 7);
  t.teardown(() => pool.close());
  // Any task starts a thread, whose module sets its priority on load; this one fails on its input.
  await pool.sharedRows({ model: new SharedArrayBuffer(8) }).catch(() => undefined);
  t.ok(threadNices().includes(7), 'the training thread runs at nice 7');
  t.equal(os.getPriority(), own, "the process's own priority is unchanged");
  t.equal(threadNices().filter((n) => n === 7).length, 1, 'only that thread');
});
