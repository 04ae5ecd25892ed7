// Who may call what: the spec's roles and the role lists route rows name.
export const ROLES = ['root', 'manager', 'backend', 'frontend', 'demo_viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ALL4: readonly Role[] = ['root', 'manager', 'backend', 'frontend'];
export const ADMINS: readonly Role[] = ['root', 'manager'];
export const BACKENDS: readonly Role[] = ['root', 'manager', 'backend'];

// Who may call a route: a role list, any valid token, or anybody.
export type Access = readonly Role[] | 'authenticated' | 'public';

// Frontend tokens act for one end user in a browser or an app. A route holding one user's or one
// session's data declares which binding a frontend token needs to call it ('user': its
// frontend_user_id, 'session': its frontend_session_id); the dispatcher refuses a frontend token
// without it, before the handler runs. Other ALL4 routes (items, item-to-items, session
// recommendations from the ratings the request carries, the database's status) need none.
export type FrontendBinding = 'user' | 'session';
