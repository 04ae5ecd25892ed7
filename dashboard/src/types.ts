// Shapes of the API answers the dashboard reads (the spec's fields, and recd's where it says more).
export type Role = 'root' | 'manager' | 'backend' | 'frontend' | 'demo_viewer';

export interface LoginAnswer {
  org_id: string;
  token: string;
  refresh_token: string;
  role: Role;
  database?: { id: string; name: string; description?: string; item_id_type: string; user_id_type: string; session_id_type?: string; status?: string };
}

export interface Database {
  id: string;
  name: string;
  description: string;
  item_id_type: string;
  user_id_type: string;
  session_id_type?: string;
}

export interface DatabaseList {
  databases: Database[];
  has_next: boolean;
  next_page: number | null;
}

// recd's own GET databases/current/counts/: what the token's database holds.
export interface DatabaseCounts {
  items: number;
  users: number;
  ratings: number;
  interactions: number;
  sessions: number;
}

export interface Model {
  model_id: string;
  timestamp: number;
  algorithm: string;
  n_users: number;
  n_items: number;
  n_ratings: number;
  factors?: number;
  metrics: Record<string, number | undefined>;
  serving: boolean;
}

export interface Task {
  task_id: string;
  name: string;
  start_time: number;
  end_time: number | null;
  status: string;
  progress: string;
  error: string | null;
}

export interface CallCounts {
  timestamps: number[];
  counts: number[];
}

export interface Property {
  property_name: string;
  value_type: string;
  repeated: boolean;
}

export type Row = Record<string, unknown>;

export interface Page {
  has_next: boolean;
  next_cursor: string;
}

export interface Recommended {
  items_id: (string | number)[];
  next_cursor?: string;
  warnings?: string[];
  evaluated_scenarios?: string[];
  reco_type?: string;
}

export interface ScenarioRecord {
  name: string;
  reco_type: string;
  scenario: {
    scenario_type: 'case' | 'ab_test' | 'condition' | 'alias';
    metadata?: unknown;
    case?: Record<string, unknown> | null;
    condition?: { condition_type: string; if: Record<string, unknown>; then: string; else: string } | null;
    alias?: { scenario_name: string } | null;
    ab_test?: { id: string; scenario_a: string; scenario_b: string } | null;
  };
}

export interface IndividualAccount {
  id: string;
  role: Role;
  email: string;
  first_name: string;
  last_name: string;
}

export interface ServiceKey {
  id: string;
  created_timestamp: number;
  expiration_timestamp?: number | null;
  is_expired: boolean;
}

export interface ServiceAccount {
  name: string;
  role: Role;
  keys: ServiceKey[];
}

export interface Accounts {
  individual_accounts: IndividualAccount[];
  service_accounts: ServiceAccount[];
}

// The API's list, shared with the server (a module without imports, bundled into the page).
export { RECO_TYPES } from '../../src/routes/reco-types.js';
