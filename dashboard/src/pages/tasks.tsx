// Tasks: running and recent background tasks of the database, read again every second while shown.
import { ok } from '../api';
import type { Task } from '../answers';
import { useApp } from '../app-context';
import { ErrorBox, Section, when } from '../components/bits';
import { Table } from '../components/table';
import { useAction, useLoad } from '../hooks';

const TASK_NAMES = ['ml_model_retrain', 'ml_new_items', 'precomputed_tables'] as const;
const POLL_MS = 1000;

export function Tasks() {
  const { client, session } = useApp();
  const tasks = useLoad(
    async () => {
      const all = await Promise.all(
        TASK_NAMES.map((n) => ok(client.GET('/tasks/{task_name}/recents/', { params: { path: { task_name: n }, query: { amt: 10 } } }))),
      );
      return all.flatMap((a) => a.tasks).sort((a, b) => b.start_time - a.start_time);
    },
    [session.database?.id],
    POLL_MS,
  );
  const action = useAction();
  return (
    <>
      <h1>Tasks</h1>
      <Section
        title="Background tasks"
        actions={
          <button
            type="button"
            disabled={action.busy}
            onClick={() =>
              void action.run(() =>
                ok(client.POST('/tasks/{task_name}/', { params: { path: { task_name: 'ml_model_retrain' } } })).then(tasks.reload),
              )
            }
          >
            Retrain now
          </button>
        }
      >
        <ErrorBox error={tasks.error ?? action.error} />
        <Table headers={['Task', 'Status', 'Progress', 'Started', 'Ended']} label="tasks">
          {tasks.data?.map((t) => (
            <tr key={t.task_id} data-status={t.status}>
              <td>{t.name}</td>
              <td>
                <span class={`status status-${t.status.toLowerCase()}`}>{t.status}</span>
              </td>
              <td>
                <Progress task={t} />
                <ErrorBox error={t.error} alert={false} />
              </td>
              <td>{when(t.start_time)}</td>
              <td>{when(t.end_time)}</td>
            </tr>
          ))}
        </Table>
        {tasks.data?.length === 0 && <p class="muted">No task has run on this database yet.</p>}
      </Section>
    </>
  );
}

// The share done, when the task's progress text says it ("(40%)", "user lists 2,000/8,000").
export function fractionOf(t: Task): number | undefined {
  if (t.status === 'COMPLETED') return 1;
  // A queued run has done nothing yet: its text's numbers are of something else ("retry 1/5 …").
  if (t.status === 'QUEUED') return undefined;
  const pct = /(\d+(?:\.\d+)?)\s*%/.exec(t.progress);
  if (pct) return Math.min(1, Number(pct[1]) / 100);
  const part = /(\d[\d,]*)\s*\/\s*(\d[\d,]*)/.exec(t.progress);
  if (part) {
    const [done, all] = [Number(part[1]!.replace(/,/g, '')), Number(part[2]!.replace(/,/g, ''))];
    if (all > 0) return Math.min(1, done / all);
  }
  return undefined;
}

function Progress({ task }: { task: Task }) {
  const f = fractionOf(task);
  const running = task.status === 'RUNNING' || task.status === 'QUEUED';
  // A failed run's last progress says where it stopped, not a share done.
  return (
    <div class="progress-cell">
      {running || (f !== undefined && task.status !== 'FAILED') ? (
        <progress max={1} value={f} aria-label={`${task.name} progress`} data-testid="task-progress">
          {f === undefined ? '' : `${Math.round(f * 100)}%`}
        </progress>
      ) : null}
      <span class="small">{task.progress}</span>
    </div>
  );
}
