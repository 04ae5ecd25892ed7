// The database the session works in; root and manager switch between the organisation's databases.
import { ok, openDatabase } from '../api';
import { useApp, isAdmin } from '../app-context';
import { useAction, useLoad } from '../hooks';

export function DatabasePicker() {
  const { client, session } = useApp();
  const admin = isAdmin(session);
  const list = useLoad(
    () => (admin ? ok(client.GET('/databases/', { params: { query: { amt: 100 } } })) : Promise.resolve(undefined)),
    [admin, session.database?.id],
  );
  const action = useAction();
  if (!admin) return <span class="db">{session.database ? `database ${session.database.name}` : 'no database'}</span>;
  return (
    <span class="db">
      <label for="db-picker">Database</label>{' '}
      <select
        id="db-picker"
        value={session.database?.id ?? ''}
        disabled={action.busy}
        onFocus={list.reload}
        onChange={(e) => {
          const id = (e.target as HTMLSelectElement).value;
          if (id) void action.run(() => openDatabase(client, id));
        }}
      >
        <option value="">(none)</option>
        {list.data?.databases.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
      {action.error && (
        <span class="error" role="alert">
          {action.error}
        </span>
      )}
    </span>
  );
}
