// The UI's own types (the API's answers are the generated ones: answers.ts).

// A row of a table of entities (items, users): a column per property.
export type Row = Record<string, unknown>;

// The API's list, shared with the server (a module without imports, bundled into the page).
export { RECO_TYPES } from '../../src/contract/reco-types.js';
