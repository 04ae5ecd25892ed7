// The dashboard's entry: signs in, then shows the pages of the signed-in role.
import { render } from 'preact';
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Session, SignedIn } from './api';
import { AppContext, canWrite, isAdmin } from './app-context';
import { PAGES, BASE, navigate, usePage, type PageName } from './router';
import { SignIn } from './pages/sign-in';
import { Overview } from './pages/overview';
import { Tasks } from './pages/tasks';
import { Catalogue } from './pages/catalogue';
import { TryIt } from './pages/try-it';
import { Scenarios } from './pages/scenarios';
import { Outcomes } from './pages/outcomes';
import { AccountsPage } from './pages/accounts';
import { DatabasePicker } from './components/database-picker';

// Pages a role can use (the API's roles: catalogue listings, scenarios and tasks need a backend role).
function pagesFor(s: Session): PageName[] {
  if (s.role === 'demo_viewer') return ['overview'];
  if (!canWrite(s)) return ['overview', 'try'];
  return isAdmin(s) ? PAGES.map((p) => p.name) : ['overview', 'tasks', 'catalogue', 'try', 'scenarios', 'outcomes'];
}

function App() {
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>(undefined);
  const page = usePage();
  if (!signedIn) return <SignIn onSignedIn={setSignedIn} onChange={(session) => setSignedIn((s) => s && { ...s, session })} />;
  const { client, session } = signedIn;
  const allowed = pagesFor(session);
  const shown = allowed.includes(page) ? page : 'overview';
  const needsDb = shown !== 'overview' && shown !== 'accounts' && !session.database;
  return (
    <AppContext.Provider value={signedIn}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${BASE}/`} onClick={(e) => (e.preventDefault(), navigate('overview'))}>
          recd
        </a>
        <nav aria-label="Pages">
          <ul>
            {PAGES.filter((p) => allowed.includes(p.name)).map((p) => (
              <li key={p.name}>
                <a
                  href={BASE + (p.path === '/' ? '/' : p.path)}
                  aria-current={p.name === shown ? 'page' : undefined}
                  onClick={(e) => (e.preventDefault(), navigate(p.name))}
                >
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <DatabasePicker />
        <span class="who" title={`organisation ${session.orgId}`}>
          {session.who} · {session.role}
          {canWrite(session) ? '' : ' (read-only)'}
        </span>
        <button type="button" onClick={() => (client.signOut(), setSignedIn(undefined))}>
          Sign out
        </button>
      </header>
      <Main page={shown}>
        {needsDb ? (
          <p class="notice">Choose a database first (top right).</p>
        ) : shown === 'overview' ? (
          <Overview />
        ) : shown === 'tasks' ? (
          <Tasks />
        ) : shown === 'catalogue' ? (
          <Catalogue />
        ) : shown === 'try' ? (
          <TryIt />
        ) : shown === 'scenarios' ? (
          <Scenarios />
        ) : shown === 'outcomes' ? (
          <Outcomes />
        ) : (
          <AccountsPage />
        )}
      </Main>
    </AppContext.Provider>
  );
}

// The page's content. After a page change the focus moves to it: keyboard and screen-reader users go
// on from the new page, not from the menu (focusable from a script and the skip link only). In the
// render that shows the page (a layout effect), not a frame later: a key pressed in between would act
// on the menu.
function Main({ page, children }: { page: PageName; children: ComponentChildren }) {
  const ref = useRef<HTMLElement>(null);
  const shown = useRef(page);
  useLayoutEffect(() => {
    if (shown.current !== page) ref.current?.focus();
    shown.current = page;
  }, [page]);
  return (
    <main id="main" tabIndex={-1} ref={ref}>
      {children}
    </main>
  );
}

render(<App />, document.getElementById('app')!);
