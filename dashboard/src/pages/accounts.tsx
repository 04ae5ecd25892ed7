// Accounts (root and manager): the organisation's individual and service accounts, service keys
// with their expiry; create and delete them. A new key's secret is shown once, as the API gives it once.
import { useState } from 'preact/hooks';
import { useApp } from '../app-context';
import { ErrorBox, Section, when } from '../components/bits';
import { useAction, useLoad } from '../hooks';
import type { Accounts } from '../types';

const ROLES = ['manager', 'backend', 'frontend', 'demo_viewer'] as const;

export function AccountsPage() {
  const { client } = useApp();
  const accounts = useLoad(() => client.get<Accounts>('organizations/current/accounts/'), []);
  const action = useAction();
  const [secret, setSecret] = useState<{ name: string; key: string } | undefined>(undefined);
  const act = (f: () => Promise<unknown>) => action.run(() => f().then(accounts.reload));
  return (
    <>
      <h1>Accounts</h1>
      <ErrorBox error={accounts.error ?? action.error} />
      {secret && (
        <p class="notice" role="status">
          New key for <strong>{secret.name}</strong> (shown once): <code data-testid="new-key">{secret.key}</code>{' '}
          <button type="button" onClick={() => setSecret(undefined)}>
            Done
          </button>
        </p>
      )}
      <Section title="Individual accounts">
        <table>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            {accounts.data?.individual_accounts.map((a) => (
              <tr key={a.id}>
                <td>{a.email}</td>
                <td>
                  {a.first_name} {a.last_name}
                </td>
                <td>{a.role}</td>
                <td>
                  {a.role !== 'root' && (
                    <button type="button" class="danger" disabled={action.busy} aria-label={`Delete ${a.email}`} onClick={() => confirm(`Delete ${a.email}?`) && void act(() => client.delete('accounts/individual/', { email: a.email }))}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <CreateIndividual busy={action.busy} onCreate={(body) => act(() => client.post('accounts/individual/', body))} />
      </Section>
      <Section title="Service accounts">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Keys</th>
              <th scope="col"></th>
            </tr>
          </thead>
          <tbody>
            {accounts.data?.service_accounts.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>{s.role}</td>
                <td>
                  <ul class="plain">
                    {s.keys.map((k) => (
                      <li key={k.id}>
                        <code>{k.id.slice(0, 8)}</code> created {when(k.created_timestamp)},{' '}
                        {k.is_expired ? <span class="error">expired</span> : k.expiration_timestamp ? `expires ${when(k.expiration_timestamp)}` : 'never expires'}{' '}
                        <button type="button" class="danger" disabled={action.busy} aria-label={`Delete key ${k.id}`} onClick={() => void act(() => client.delete(`accounts/service/keys/${k.id}/`))}>
                          Delete key
                        </button>
                      </li>
                    ))}
                  </ul>
                  <NewKey
                    name={s.name}
                    busy={action.busy}
                    onCreate={(body) => action.run(() => client.post<{ key: string }>('accounts/service/keys/', body).then((k) => (setSecret({ name: s.name, key: k.key }), accounts.reload())))}
                  />
                </td>
                <td>
                  {s.role !== 'root' && (
                    <button type="button" class="danger" disabled={action.busy} aria-label={`Delete ${s.name}`} onClick={() => confirm(`Delete ${s.name}?`) && void act(() => client.delete('accounts/service/', { name: s.name }))}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <CreateService busy={action.busy} onCreate={(body) => act(() => client.post('accounts/service/', body))} />
      </Section>
    </>
  );
}

function RoleSelect({ id, value, set }: { id: string; value: string; set: (v: string) => void }) {
  return (
    <select id={id} value={value} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

function CreateIndividual({ busy, onCreate }: { busy: boolean; onCreate: (b: Record<string, unknown>) => Promise<boolean> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('backend');
  const [password, setPassword] = useState('');
  return (
    <form class="row-form" onSubmit={(e) => {
        e.preventDefault();
        void onCreate({ email, role, ...(password ? { password } : {}) }).then((ok) => ok && (setEmail(''), setPassword('')));
      }} aria-label="New individual account">
      <label for="new-email">Email</label>
      <input id="new-email" type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
      <label for="new-role">Role</label>
      <RoleSelect id="new-role" value={role} set={setRole} />
      <label for="new-password">Password (empty: an email invites them to set one)</label>
      <input id="new-password" type="password" autoComplete="new-password" value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={busy}>
        Create account
      </button>
    </form>
  );
}

function CreateService({ busy, onCreate }: { busy: boolean; onCreate: (b: Record<string, unknown>) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState('backend');
  return (
    <form class="row-form" onSubmit={(e) => {
        e.preventDefault();
        void onCreate({ name, role }).then((ok) => ok && setName(''));
      }} aria-label="New service account">
      <label for="new-service">Name</label>
      <input id="new-service" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <label for="new-service-role">Role</label>
      <RoleSelect id="new-service-role" value={role} set={setRole} />
      <button type="submit" disabled={busy}>
        Create service account
      </button>
    </form>
  );
}

// A key with an optional expiry date (the API takes a timestamp in seconds).
function NewKey({ name, busy, onCreate }: { name: string; busy: boolean; onCreate: (b: Record<string, unknown>) => Promise<boolean> }) {
  const [expires, setExpires] = useState('');
  const id = `expiry-${name}`;
  return (
    <form
      class="row-form small"
      onSubmit={(e) => {
        e.preventDefault();
        void onCreate({ name, ...(expires ? { expiration_timestamp: new Date(expires).getTime() / 1000 } : {}) }).then((ok) => ok && setExpires(''));
      }}
      aria-label={`New key for ${name}`}
    >
      <label for={id}>Expires (optional)</label>
      <input id={id} type="date" value={expires} onInput={(e) => setExpires((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={busy}>
        New key
      </button>
    </form>
  );
}
