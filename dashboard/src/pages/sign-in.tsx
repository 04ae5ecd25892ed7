// Signing in with recd's own accounts: an individual account (email and password, root included) or
// a service account (name and key), optionally straight into a database.
import { useState } from 'preact/hooks';
import type { Client } from '../api';
import { ErrorBox } from '../components/bits';
import { useAction } from '../hooks';

export function SignIn({ client }: { client: Client }) {
  const [kind, setKind] = useState<'individual' | 'service'>('individual');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [dbName, setDbName] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(() => client.signIn({ kind, login, password, ...(dbName ? { dbName } : {}) }));
  };
  return (
    <main id="main" class="sign-in">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to recd</h1>
        <fieldset>
          <legend>Account kind</legend>
          <label>
            <input type="radio" name="kind" checked={kind === 'individual'} onChange={() => setKind('individual')} /> Individual (email)
          </label>
          <label>
            <input type="radio" name="kind" checked={kind === 'service'} onChange={() => setKind('service')} /> Service account (key)
          </label>
        </fieldset>
        <label for="login">{kind === 'individual' ? 'Email' : 'Service account name'}</label>
        <input id="login" name="login" autoComplete="username" required value={login} onInput={(e) => setLogin((e.target as HTMLInputElement).value)} />
        <label for="password">{kind === 'individual' ? 'Password' : 'Key'}</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
        <label for="db-name">Database name (optional)</label>
        <input id="db-name" name="db_name" value={dbName} onInput={(e) => setDbName((e.target as HTMLInputElement).value)} />
        <ErrorBox error={action.error} />
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted small">The token stays in this page's memory: reloading the page signs you out.</p>
      </form>
    </main>
  );
}
