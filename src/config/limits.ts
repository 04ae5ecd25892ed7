// The spec's "Limits" table, as constants the schemas and services import.
export const LIMITS = {
  recoAmtMax: 64,
  bulkListingAmtMax: 500,
  bulkListingAmtDefault: 300,
  callCountsAmtMax: 128,
  callCountsAmtDefault: 64,
  scenarioCaseAmtMax: 64,
  scenarioFiltersMax: 10,
  excludeInteractionTypesMax: 50,
  scenarioNameMax: 64,
  nameMax: 64,
  idMax: 64,
  valueTypeMax: 10,
  ratingMin: 1,
  ratingMax: 10,
  timestampMin: -150000000000.0,
  timestampMax: 3500000000.0,
  individualPasswordMin: 10,
  servicePasswordMin: 12,
  minRatingsForTraining: 500,
  // Not in the spec; our choices, documented in docs/api-choices.md.
  databasesAmtDefault: 50,
  databasesAmtMax: 500,
  tasksAmtDefault: 20,
  tasksAmtMax: 500,
  textFieldMax: 1024,
  serviceKeysPerAccountMax: 20,
  ratingsAmtDefault: 300,
  ratingsAmtMax: 16_384,
  // One repeated property's values on one item or user (after m2m rows are appended): far above any
  // list of tags or categories, and it keeps a filter's walk of one record's values short.
  repeatedValuesMax: 1000,
  // One item's or user's stored properties (its msgpack record, entity-record.ts): 1,000 values of a
  // unicode32 property fit; a listing page of 500 records stays under 32 MiB, and each process holds
  // every record of the catalogues it serves in memory.
  recordBytesMax: 64 * 1024,
} as const;
