// Accounts (root and manager): the organisation's individual and service accounts, service keys
// with their expiry; create and delete them. A new key's secret is shown once, as the API gives it once.
import { useState } from 'preact/hooks';
import { ok } from '../api';
import { useApp } from '../app-context';
import { ErrorBox, Section, when } from '../components/bits';
import { ActionForm, DeleteButton, Field, SelectField } from '../components/form';
import { Table } from '../components/table';
import { useAction, useLoad } from '../hooks';

const ROLES = ['manager', 'backend', 'frontend', 'demo_viewer'] as const;
type Role = (typeof ROLES)[number];

// Runs a form's request; says whether it succeeded, so that the form empties only then.
type Create<B> = (body: B) => Promise<boolean>;

export function AccountsPage() {
  const { client } = useApp();
  const accounts = useLoad(() => ok(client.GET('/organizations/current/accounts/')), []);
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
        <Table headers={['Email', 'Name', 'Role', '']} label="individual accounts">
          {accounts.data?.individual_accounts.map((a) => (
            <tr key={a.id}>
              <td>{a.email}</td>
              <td>
                {a.first_name} {a.last_name}
              </td>
              <td>{a.role}</td>
              <td>
                {a.role !== 'root' && (
                  <DeleteButton
                    label={`Delete ${a.email}`}
                    busy={action.busy}
                    onDelete={() => void act(() => ok(client.DELETE('/accounts/individual/', { body: { email: a.email } })))}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
        <CreateIndividual busy={action.busy} onCreate={(body) => act(() => ok(client.POST('/accounts/individual/', { body })))} />
      </Section>
      <Section title="Service accounts">
        <Table headers={['Name', 'Role', 'Keys', '']} label="service accounts">
          {accounts.data?.service_accounts.map((s) => (
            <tr key={s.name}>
              <td>{s.name}</td>
              <td>{s.role}</td>
              <td>
                <ul class="plain" aria-label={`Keys of ${s.name}`}>
                  {s.keys.map((k) => (
                    <li key={k.id}>
                      <code>{k.id.slice(0, 8)}</code> created {when(k.created_timestamp)},{' '}
                      {k.is_expired ? (
                        <span class="error">expired</span>
                      ) : k.expiration_timestamp ? (
                        `expires ${when(k.expiration_timestamp)}`
                      ) : (
                        'never expires'
                      )}{' '}
                      <DeleteButton
                        label={`Delete key ${k.id.slice(0, 8)} of ${s.name}`}
                        busy={action.busy}
                        onDelete={() =>
                          void act(() => ok(client.DELETE('/accounts/service/keys/{key_id}/', { params: { path: { key_id: k.id } } })))
                        }
                      >
                        Delete key
                      </DeleteButton>
                    </li>
                  ))}
                </ul>
                <NewKey
                  name={s.name}
                  busy={action.busy}
                  onCreate={(body) =>
                    action.run(() =>
                      ok(client.POST('/accounts/service/keys/', { body })).then(
                        (k) => (setSecret({ name: s.name, key: k.key }), accounts.reload()),
                      ),
                    )
                  }
                />
              </td>
              <td>
                {s.role !== 'root' && (
                  <DeleteButton
                    label={`Delete ${s.name}`}
                    busy={action.busy}
                    onDelete={() => void act(() => ok(client.DELETE('/accounts/service/', { body: { name: s.name } })))}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
        <CreateService busy={action.busy} onCreate={(body) => act(() => ok(client.POST('/accounts/service/', { body })))} />
      </Section>
    </>
  );
}

function CreateIndividual({ busy, onCreate }: { busy: boolean; onCreate: Create<{ email: string; role: Role; password?: string }> }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('backend');
  const [password, setPassword] = useState('');
  const create = () =>
    void onCreate({ email, role, ...(password ? { password } : {}) }).then((ok) => ok && (setEmail(''), setPassword('')));
  return (
    <ActionForm label="New individual account" class="row-form" onSubmit={create} busy={busy} submit="Create account">
      <Field id="new-email" label="Email" type="email" required value={email} set={setEmail} />
      <SelectField id="new-role" label="Role" value={role} set={setRole} options={ROLES} />
      <Field
        id="new-password"
        label="Password (empty: an email invites them to set one)"
        type="password"
        autoComplete="new-password"
        value={password}
        set={setPassword}
      />
    </ActionForm>
  );
}

function CreateService({ busy, onCreate }: { busy: boolean; onCreate: Create<{ name: string; role: Role }> }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('backend');
  return (
    <ActionForm
      label="New service account"
      class="row-form"
      onSubmit={() => void onCreate({ name, role }).then((ok) => ok && setName(''))}
      busy={busy}
      submit="Create service account"
    >
      <Field id="new-service" label="Name" required value={name} set={setName} />
      <SelectField id="new-service-role" label="Role" value={role} set={setRole} options={ROLES} />
    </ActionForm>
  );
}

// A key with an optional expiry date (the API takes a timestamp in seconds).
function NewKey({
  name,
  busy,
  onCreate,
}: {
  name: string;
  busy: boolean;
  onCreate: Create<{ name: string; expiration_timestamp?: number }>;
}) {
  const [expires, setExpires] = useState('');
  const create = () =>
    void onCreate({ name, ...(expires ? { expiration_timestamp: new Date(expires).getTime() / 1000 } : {}) }).then(
      (ok) => ok && setExpires(''),
    );
  return (
    <ActionForm label={`New key for ${name}`} class="row-form small" onSubmit={create} busy={busy} submit="New key">
      <Field id={`expiry-${name}`} label="Expires (optional)" type="date" value={expires} set={setExpires} />
    </ActionForm>
  );
}
