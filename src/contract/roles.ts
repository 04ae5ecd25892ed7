// Who may call what: the spec's roles and the role lists route rows name.
export const ROLES = ['root', 'manager', 'backend', 'frontend', 'demo_viewer'] as const;
export type Role = (typeof ROLES)[number];
export const ALL4: readonly Role[] = ['root', 'manager', 'backend', 'frontend'];
export const ADMINS: readonly Role[] = ['root', 'manager'];
export const BACKENDS: readonly Role[] = ['root', 'manager', 'backend'];

// Who may call a route: a role list, any valid token, or anybody.
export type Access = readonly Role[] | 'authenticated' | 'public';

