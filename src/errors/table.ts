// The spec's error table ("Errors"), as data. Only src/http turns these into status and body.
export interface ErrorClass {
  status: number;
  code: number;
  names: readonly string[];
}

export const ERROR_TABLE = {
  ServerError: { status: 500, code: 0, names: ['SERVER_ERROR'] },
  ServerUnavailable: {
    status: 503,
    code: 1,
    names: ['WRITING_ON_READONLY_MODE', 'DATABASE_NOT_READY', 'DB_IMPLICIT_TO_EXPLICIT_PARAMS_NOT_FOUND', 'STORAGE_UNAVAILABLE'],
  },
  TooManyRequests: { status: 429, code: 2, names: ['RATE_LIMIT_OVERFLOW'] },
  AuthError: {
    status: 401,
    code: 21,
    names: [
      'INCORRECT_PASSWORD',
      'ACCOUNT_NOT_VERIFIED',
      'INCORRECT_REFRESH_TOKEN',
      'ACTIVATION_CODE_DOES_NOT_MATCH',
      'CODE_DOES_NOT_MATCH',
      'CODE_EXPIRED',
      'AUTHENTICATION_REQUIRED',
    ],
  },
  JwtTokenExpired: { status: 401, code: 22, names: ['INCORRECT_JWT_TOKEN'] },
  RefreshTokenExpired: { status: 401, code: 28, names: ['REFRESH_TOKEN_EXPIRED'] },
  WrongData: {
    status: 400,
    code: 40,
    names: [
      'WRONG_DATA_TYPE',
      'WRONG_PARAMETER',
      'WRONG_OP_USE',
      'INCORRECT_USER_ID_TYPE',
      'INCORRECT_ITEM_ID_TYPE',
      'INCORRECT_SESSION_ID_TYPE',
      'ITEM_PROPERTY_FOUND_IN_SCENARIO',
      'SCENARIO_IN_USE',
    ],
  },
  DuplicatedError: {
    status: 400,
    code: 42,
    names: [
      'DUPLICATED_USER_ID',
      'DUPLICATED_ITEM_ID',
      'DUPLICATED_USER_PROPERTY',
      'DUPLICATED_ITEM_PROPERTY',
      'TASK_ALREADY_RUNNING',
      'DUPLICATED_SESSION_ID',
      'DUPLICATED_ACCOUNT',
      'DUPLICATED_DATABASE',
    ],
  },
  ForbiddenError: {
    status: 403,
    code: 50,
    names: [
      'INCORRECT_ROLE',
      'INCORRECT_FRONTEND_USER_ID',
      'INCORRECT_ACCOUNT',
      'SSO_AUTHENTICATION_FAIL',
      'INCORRECT_FRONTEND_SESSION_ID',
      'QUOTA_EXCEEDED',
    ],
  },
  NotFoundError: {
    status: 404,
    code: 60,
    names: [
      'USER_NOT_FOUND',
      'ITEM_NOT_FOUND',
      'USER_PROPERTY_NOT_FOUND',
      'ITEM_PROPERTY_NOT_FOUND',
      'ACCOUNT_NOT_FOUND',
      'DATABASE_NOT_FOUND',
      'CONNECTION_NOT_FOUND',
      'ORGANIZATION_NOT_FOUND',
      'TABLE_NOT_FOUND',
      'RESOURCE_NOT_FOUND',
      'SCENARIO_NOT_FOUND',
      'SAML_NOT_FOUND',
      'TABLE_IS_EMPTY',
      'TASK_NOT_FOUND',
      'AB_TEST_NOT_FOUND',
    ],
  },
  MethodNotAllowed: { status: 405, code: 70, names: ['HTTP_METHOD_NOT_ALLOWED'] },
} as const satisfies Record<string, ErrorClass>;

export type ErrorName = keyof typeof ERROR_TABLE;
export type ErrorDataName<N extends ErrorName> = (typeof ERROR_TABLE)[N]['names'][number];

// error_data.name values recd adds to the spec's lists (documented in docs/api-choices.md).
export const EXTENSION_NAMES: readonly string[] = [
  'SERVER_ERROR',
  'STORAGE_UNAVAILABLE',
  'AUTHENTICATION_REQUIRED',
  'SCENARIO_IN_USE',
  'DUPLICATED_DATABASE',
  'TASK_NOT_FOUND',
  'QUOTA_EXCEEDED',
  'AB_TEST_NOT_FOUND',
];
