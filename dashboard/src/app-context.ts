// What every page reads: the API client and the session it holds.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session, SignedIn } from './api';

export const AppContext = createContext<SignedIn | undefined>(undefined);

export function useApp(): SignedIn {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside a signed-in page');
  return app;
}

// Roles that may change things; frontend and demo_viewer accounts get a read-only view.
export const canWrite = (s: Session) => s.role === 'root' || s.role === 'manager' || s.role === 'backend';
export const isAdmin = (s: Session) => s.role === 'root' || s.role === 'manager';
