// Signing in with recd's own accounts: an individual account (email and password, root included) or
// a service account (name and key), optionally straight into a database.
import { useState } from 'preact/hooks';
import { signIn, type Session, type SignedIn } from '../api';
import { ActionForm, Choice, Field } from '../components/form';
import { useAction } from '../hooks';

const KINDS = [
  ['individual', 'Individual (email)'],
  ['service', 'Service account (key)'],
] as const;

// onChange: the session's later changes (renewals, another database).
export function SignIn({ onSignedIn, onChange }: { onSignedIn: (s: SignedIn) => void; onChange: (s: Session) => void }) {
  const [kind, setKind] = useState<'individual' | 'service'>('individual');
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [dbName, setDbName] = useState('');
  const action = useAction();
  const submit = () => void action.run(() => signIn({ kind, login, password, ...(dbName ? { dbName } : {}) }, onChange).then(onSignedIn));
  return (
    <main id="main" class="sign-in">
      <ActionForm
        label="Sign in to recd"
        class="card"
        onSubmit={submit}
        busy={action.busy}
        error={action.error}
        submit={action.busy ? 'Signing in…' : 'Sign in'}
      >
        <h1>Sign in to recd</h1>
        <p class="muted small">The token stays in this page's memory: reloading the page signs you out.</p>
        <Choice legend="Account kind" name="kind" options={KINDS} value={kind} set={setKind} />
        <Field
          id="login"
          name="login"
          label={kind === 'individual' ? 'Email' : 'Service account name'}
          autoComplete="username"
          required
          value={login}
          set={setLogin}
        />
        <Field
          id="password"
          name="password"
          label={kind === 'individual' ? 'Password' : 'Key'}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          set={setPassword}
        />
        <Field id="db-name" name="db_name" label="Database name (optional)" value={dbName} set={setDbName} />
      </ActionForm>
    </main>
  );
}
