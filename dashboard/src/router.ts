// Client routes under /dashboard/ (the server answers every one of them with the page itself).
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

export type PageName = 'overview' | 'tasks' | 'catalogue' | 'try' | 'scenarios' | 'outcomes' | 'accounts';
export const PAGES: { name: PageName; title: string; path: string }[] = [
  { name: 'overview', title: 'Overview', path: '/' },
  { name: 'tasks', title: 'Tasks', path: '/tasks' },
  { name: 'catalogue', title: 'Catalogue', path: '/catalogue' },
  { name: 'try', title: 'Try it', path: '/try' },
  { name: 'scenarios', title: 'Scenarios', path: '/scenarios' },
  { name: 'outcomes', title: 'Outcomes', path: '/outcomes' },
  { name: 'accounts', title: 'Accounts', path: '/accounts' },
];

function current(): PageName {
  const rest = location.pathname.slice(BASE.length).replace(/\/+$/, '') || '/';
  return PAGES.find((p) => p.path === rest)?.name ?? 'overview';
}

export function navigate(name: PageName): void {
  const page = PAGES.find((p) => p.name === name)!;
  history.pushState(null, '', BASE + (page.path === '/' ? '/' : page.path));
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePage(): PageName {
  const [page, setPage] = useState(current);
  useEffect(() => {
    const on = () => setPage(current());
    addEventListener('popstate', on);
    return () => removeEventListener('popstate', on);
  }, []);
  return page;
}
