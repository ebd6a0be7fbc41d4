import {
  CURRENT_SPEC_VERSION,
  declarationBodyJsonSchema,
  DECLARANTS,
  FILE_FIX_RULES,
  FILE_TYPES,
  findSpec,
  FORMULA_POLICIES,
  ISSUE_CODES,
  ISSUE_DETAILS,
  NORMALIZATION_RULES,
  REFERENCE_LIST_NAMES,
  SPEC_VERSIONS,
  type IssueDetails,
} from '@ppfile/rules';
import { REQUEST_ERROR_CODES, type RequestErrorCode } from './codes';
import { REQUEST_ERROR_STATUS } from './errors';
import { FILE_STATUSES } from './files';
import { OPENAPI_EXAMPLES } from './openapi-examples';

/** How an import matched a header (libs/sheets MatchHow; test/openapi.e2e-spec.ts holds them equal). */
export const SHEET_MATCHES = ['name', 'field', 'label', 'synonym', 'given'] as const;
/** The codes of an import's cell issues (libs/sheets SHEET_ISSUE_CODES; held equal likewise). */
export const SHEET_ISSUE_CODES = [
  'UNREADABLE_DATE',
  'UNREADABLE_NUMBER',
  'UNREADABLE_CELL',
  'DECLARATION_VALUES_DIFFER',
  'CELL_IGNORED',
  'UNCOMPUTED_FORMULA',
] as const;

/**
 * The OpenAPI 3.0.3 document of the HTTP API (API.md): the contract that generated clients, mock
 * servers and contract tests rely on. Built from the tables the server itself uses — the body
 * shape and the spec's columns (libs/rules request-shape), the error codes and their statuses
 * (REQUEST_ERROR_STATUS), the issue codes, normalization rules, file states, limits — so that it
 * cannot drift from what the server does. `npm run openapi` writes it to openapi.json; the gateway
 * serves the same object at /docs-json and Swagger UI at /docs.
 */
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

/** A schema object of OpenAPI 3.0 (JSON Schema with `nullable`, `example`, `format`). */
type Schema = Record<string, unknown>;

const SPEC = findSpec(CURRENT_SPEC_VERSION)!;
const LIMITS = SPEC.limits;
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const schemaRef = (name: string) => ref('schemas', name);
/** `DeclarationBodyAdf`, `DeclarationBodyJdr`. */
const bodySchemaName = (type: string) => `DeclarationBody${type[0]!.toUpperCase()}${type.slice(1)}`;

/** Error statuses, with what each means for a caller (the codes come from REQUEST_ERROR_STATUS). */
const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description: 'The request is unreadable or malformed: `details.fields` names each problem.',
  },
  401: {
    name: 'Unauthorized',
    description: 'No `Authorization: Bearer` key, or an unknown, malformed or revoked one.',
  },
  404: {
    name: 'NotFound',
    description: 'No such resource for this key (a file of another key reads as unknown).',
  },
  409: {
    name: 'Conflict',
    description: 'Idempotency-Key reused with another body or still running, or a file not available yet.',
  },
  410: {
    name: 'Gone',
    description: 'The file expired: its content was deleted (its metadata still answers).',
  },
  413: {
    name: 'PayloadTooLarge',
    description: `Body over ${LIMITS.maxBytes / 1024 / 1024} MB (once inflated, for a compressed one), or more rows than the key may send in one request (\`details.limit\`).`,
  },
  408: {
    name: 'RequestTimeout',
    description:
      'The body did not arrive in time (BODY_TIMEOUT_SECONDS, or slower than BODY_MIN_BYTES_PER_SECOND after the first 10 s): nothing was counted; the connection is closed.',
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'Wrong Content-Type (or charset), or a Content-Encoding that is not taken (JSON: gzip, deflate, br; uploads: none).',
  },
  422: {
    name: 'ValidationFailed',
    description:
      'A row is invalid: no file is produced and nothing is counted; `details` is the validation response.',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Per-minute limit of the key or of its organization (`Retry-After`), or the monthly quota (`details`: used, limit, requested).',
  },
  500: {
    name: 'InternalError',
    description: 'Anything else; never a stack trace. Retry later or report the `request_id`.',
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      "A dependency (database, queue, storage) is down, or the gateway's memory for request bodies is in use (MAX_INFLIGHT_BYTES, one organization at most half of it): nothing was counted, no file kept. Retry after `Retry-After` seconds.",
  },
};

function codesOf(status: number): RequestErrorCode[] {
  return REQUEST_ERROR_CODES.filter((c) => REQUEST_ERROR_STATUS[c] === status);
}

/**
 * What `details` holds, by status: every key the server writes there (absent ones are absent), so that
 * a generated client reads them without a cast and the contract tests catch a new one.
 */
function errorDetailsSchema(status: number): Schema {
  const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
  const properties: Record<number, Record<string, Schema>> = {
    400: {
      fields: {
        type: 'array',
        description:
          'INVALID_REQUEST: each problem of the request, by JSON path or form field (at most 100).',
        items: object({ field: string('JSON path, form field or header.'), message: string() }),
      },
      field_count: count('INVALID_REQUEST: the number of problems (all of them, even past the list).'),
      supported: {
        type: 'array',
        items: { type: 'string', enum: [...SPEC_VERSIONS] },
        description: 'UNSUPPORTED_SPEC_VERSION: the versions this server knows.',
      },
      reason: {
        type: 'string',
        description:
          'UNREADABLE_FILE: why the spreadsheet cannot be read (e.g. `not_a_spreadsheet`, `corrupt_zip`, `legacy_xls`, `too_large_expanded`, `too_many_cells`, `cell_too_long`, `body_too_large`, `too_slow`; docs/spreadsheets.md lists them all); the message says it in words.',
      },
    },
    409: {
      status: {
        type: 'string',
        enum: ['processing', 'failed'],
        description: 'FILE_NOT_AVAILABLE: the state of the file.',
      },
    },
    413: {
      limit: count('LINE_LIMIT_EXCEEDED: the rows allowed in one request with this key.'),
      rows: count('LINE_LIMIT_EXCEEDED: the rows of the request.'),
    },
    429: {
      limit: count(
        'The per-minute limit (RATE_LIMIT_EXCEEDED) or the monthly quota in units or test rows (QUOTA_EXCEEDED).',
      ),
      retry_after: count('RATE_LIMIT_EXCEEDED: seconds until the window resets (also in Retry-After).'),
      used: count('QUOTA_EXCEEDED: units (or test rows) used this month.'),
      requested: count('QUOTA_EXCEEDED: units (or test rows) this request needed.'),
      mode: {
        type: 'string',
        enum: ['test'],
        description: "QUOTA_EXCEEDED: 'test' when the test keys' monthly rows ran out.",
      },
    },
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties: properties[status] ?? {},
    description: properties[status] ? 'Depends on the code (see each property).' : 'Empty for these codes.',
  };
}

/** The one error body of API.md §6, its `code` limited to the codes of `status`. */
function errorSchema(status: number, codes: readonly RequestErrorCode[] = codesOf(status)): Schema {
  const details: Schema =
    status === 422 ? schemaRef('DeclarationValidationResponse') : errorDetailsSchema(status);
  return {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'details', 'request_id'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: [...codes] },
          message: { type: 'string', description: 'In the language of Accept-Language (en or fr).' },
          details,
          request_id: { type: 'string', example: 'req_8f14e45fceea167a5a36dedd4bea2543' },
        },
      },
    },
  };
}

const integer = (description?: string): Schema => ({
  type: 'integer',
  minimum: 0,
  ...(description ? { description } : {}),
});
const string = (description?: string): Schema => ({
  type: 'string',
  ...(description ? { description } : {}),
});
const nullableString = (description?: string): Schema => ({
  type: 'string',
  nullable: true,
  ...(description ? { description } : {}),
});
const object = (
  properties: Record<string, Schema>,
  required = Object.keys(properties),
  extra: Partial<Schema> = {},
): Schema => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
  ...extra,
});
const counts = (): Schema => ({ type: 'object', additionalProperties: { type: 'integer' } });

/** What an issue's `details` may hold (libs/rules ISSUE_DETAILS): each key, with the codes that carry it. */
function issueDetailsSchema(): Schema {
  const codesWith = (key: string): string =>
    Object.entries(ISSUE_DETAILS)
      .filter(([, keys]) => keys.some((k) => k === key))
      .map(([code]) => code)
      .join(', ');
  const properties: Record<keyof IssueDetails, Schema> = {
    deadline: {
      type: 'string',
      pattern: '^[0-9]{2}/[0-9]{2}/[0-9]{4}$',
      example: '30/09/2026',
      description: `${codesWith('deadline')}: the legal filing deadline (DD/MM/YYYY) of the declarant's timetable (API.md §4).`,
    },
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties,
    description: `Values of the message a client may show without parsing it; only for ${Object.keys(ISSUE_DETAILS).join(', ')} (absent otherwise). Never a value of the file or of the request.`,
  };
}

function schemas(): Record<string, Schema | Record<string, unknown>> {
  const issue = object(
    {
      row: {
        type: 'integer',
        nullable: true,
        description: 'Line of the file (header = 1); null for a file-level issue.',
      },
      column: nullableString('Official column name, null when the issue is not about one column.'),
      field: string('JSON path of the value in the request (JSON input only).'),
      code: { type: 'string', enum: [...ISSUE_CODES] },
      message: string('In the language of Accept-Language; never quotes a personal value.'),
      details: issueDetailsSchema(),
    },
    ['row', 'column', 'code', 'message'],
  );
  const validationCommon = {
    valid: { type: 'boolean' },
    spec_version: { type: 'string', enum: [...SPEC_VERSIONS] },
    rows_total: integer(),
    rows_valid: integer(),
    rows_invalid: integer(),
    error_count: integer(),
    truncated: {
      type: 'boolean',
      description: `true when more than ${LIMITS.maxErrorsListed} errors exist (the list stops there; error_count counts all).`,
    },
    errors: { type: 'array', items: schemaRef('Issue'), maxItems: LIMITS.maxErrorsListed },
    warning_count: integer(),
    warnings: { type: 'array', items: schemaRef('Issue') },
    summary: schemaRef('IssueSummary'),
  };
  const normalizations = {
    normalization_count: integer(),
    normalizations: { type: 'array', items: schemaRef('Normalization'), maxItems: LIMITS.maxErrorsListed },
  };
  const fileStatus: Schema = { type: 'string', enum: [...FILE_STATUSES] };
  return {
    // One schema per file type, told apart by `type`: a field of the other type is refused, as by
    // the server (an adf body with a jdr holder's `result` is a 400, not a union's silent pass).
    DeclarationBody: {
      description:
        'Declarations to turn into a bulk-import file: the body of an adf file or of a jdr file, told apart by `type`. ' +
        'The schema refuses a body when the server would refuse it (400 INVALID_REQUEST) and when the server ' +
        'would read it but find an error a schema can say (a required field missing, a value too long or not ' +
        'among the allowed ones, a field not allowed, too many or too few values): those are errors of the ' +
        'validation response (200 from validate, 422 from generate), not a 400. Whatever else depends on the ' +
        'declarant or on other values (NIR keys, dates, codes of the reference lists) comes back as errors of ' +
        'the validation response too.',
      oneOf: FILE_TYPES.map((t) => schemaRef(bodySchemaName(t))),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(FILE_TYPES.map((t) => [t, `#/components/schemas/${bodySchemaName(t)}`])),
      },
    },
    ...Object.fromEntries(FILE_TYPES.map((t) => [bodySchemaName(t), declarationBodyJsonSchema(SPEC, t)])),
    Issue: issue,
    IssueSummary: object({ by_code: counts(), by_column: counts() }),
    Normalization: object({
      field: string('JSON path of the value that was changed (the value itself is never copied).'),
      column: string(),
      rule: { type: 'string', enum: [...NORMALIZATION_RULES] },
    }),
    DeclarationValidationResponse: object({ ...validationCommon, ...normalizations }),
    FileValidationResponse: object({
      ...validationCommon,
      file_rejected: {
        type: 'boolean',
        description: 'A file-level problem (encoding, separator, header, name): its rows are not reported.',
      },
    }),
    FileChange: object({
      row: {
        type: 'integer',
        nullable: true,
        description: 'Line of the file; null for a change of the whole file.',
      },
      column: nullableString('Official column name; null for a change of the whole file.'),
      rule: { type: 'string', enum: [...NORMALIZATION_RULES, ...FILE_FIX_RULES] },
    }),
    FixResponse: object(
      {
        content: string(
          'The fixed file (UTF-8, CRLF); absent when the file cannot be mended (header, column count).',
        ),
        changes: { type: 'array', items: schemaRef('FileChange'), maxItems: LIMITS.maxErrorsListed },
        change_count: integer(),
        validation: schemaRef('FileValidationResponse'),
      },
      ['changes', 'change_count', 'validation'],
    ),
    CellIssue: object(
      {
        ...(issue.properties as Record<string, Schema>),
        row: integer('Row of the sheet.'),
        cell: string(
          'Where the value came from: `Sheet!D7` (a row: `Sheet!7:7`; for a CSV the sheet is the file name).',
        ),
      },
      ['row', 'column', 'code', 'message', 'cell'],
    ),
    CellNormalization: object({
      field: string('JSON path of the value that was changed in `body`.'),
      column: string(),
      rule: { type: 'string', enum: [...NORMALIZATION_RULES] },
      cell: string(),
    }),
    ImportValidation: object({
      ...validationCommon,
      errors: { type: 'array', items: schemaRef('CellIssue'), maxItems: LIMITS.maxErrorsListed },
      warnings: { type: 'array', items: schemaRef('CellIssue') },
      normalization_count: integer(),
      normalizations: {
        type: 'array',
        items: schemaRef('CellNormalization'),
        maxItems: LIMITS.maxErrorsListed,
      },
    }),
    ImportResponse: object({
      body: object(
        {
          type: { type: 'string', enum: [...FILE_TYPES] },
          declarant: { type: 'string', enum: [...DECLARANTS] },
          spec_version: { type: 'string', enum: [...SPEC_VERSIONS] },
          declarations: { type: 'array', items: { type: 'object', additionalProperties: true } },
        },
        undefined,
        {
          description:
            "Exactly what `POST /v1/files/generate` takes (add `options`): the cells' own values, never corrected beyond the normalizations `validation` lists. It may be invalid: `validation` says why, cell by cell.",
        },
      ),
      sheet: string('The sheet read (for a CSV: the file name).'),
      header_row: integer('Row of the header (1-based).'),
      rows_read: integer('Data rows read (empty rows skipped).'),
      declarations: integer(),
      mapping: {
        type: 'array',
        items: object({
          header: string('The header as written.'),
          column: string('The official column it was read as.'),
          cell: string("The header's cell (`D1`)."),
          how: { type: 'string', enum: [...SHEET_MATCHES] },
        }),
      },
      unmapped_headers: {
        type: 'array',
        items: string(),
        description: 'Headers matching no column: their cells are ignored.',
      },
      missing_columns: { type: 'array', items: string(), description: 'Official columns no header matched.' },
      issue_count: integer(),
      issues: {
        type: 'array',
        maxItems: LIMITS.maxErrorsListed,
        items: object({
          cell: string(),
          row: integer(),
          column: nullableString(),
          code: { type: 'string', enum: [...SHEET_ISSUE_CODES] },
          message: string('In the language of Accept-Language; never quotes a cell.'),
        }),
      },
      validation: schemaRef('ImportValidation'),
    }),
    GenerateResponse: object(
      {
        success: { type: 'boolean', enum: [true] },
        file_id: string(),
        mode: { type: 'string', enum: ['live', 'test'] },
        spec_version: { type: 'string', enum: [...SPEC_VERSIONS] },
        rows: integer(),
        declarations: integer(),
        filename: string('The official file name: ppfile_<adf|jdr>_<YYYYMMDD>_<8 hex>.csv'),
        sha256: string(),
        stored: { type: 'boolean' },
        expires_at: { type: 'string', format: 'date-time', nullable: true },
        download_url: nullableString('Absolute URL of the download, null when not stored.'),
        warning_count: integer(),
        warnings: { type: 'array', items: schemaRef('Issue') },
        ...normalizations,
        content: string('The CSV itself, only with `options.store: false`.'),
      },
      [
        'success',
        'file_id',
        'mode',
        'spec_version',
        'rows',
        'declarations',
        'filename',
        'sha256',
        'stored',
        'expires_at',
        'download_url',
        'warning_count',
        'warnings',
        'normalization_count',
        'normalizations',
      ],
    ),
    GenerateAccepted: object({ file_id: string(), status: { type: 'string', enum: ['processing'] } }),
    FileMetadata: object(
      {
        file_id: string(),
        mode: { type: 'string', enum: ['live', 'test'] },
        status: fileStatus,
        type: { type: 'string', enum: [...FILE_TYPES] },
        declarant: { type: 'string', enum: [...DECLARANTS] },
        spec_version: string(),
        filename: string(),
        sha256: nullableString('null while processing.'),
        rows: integer(),
        declarations: integer(),
        stored: { type: 'boolean' },
        created_at: { type: 'string', format: 'date-time' },
        expires_at: { type: 'string', format: 'date-time', nullable: true },
        download_url: nullableString(),
        error: {
          allOf: [schemaRef('ErrorInFile')],
          description: 'For a `failed` file: the error body its request would have had.',
        },
      },
      [
        'file_id',
        'mode',
        'status',
        'type',
        'declarant',
        'spec_version',
        'filename',
        'sha256',
        'rows',
        'declarations',
        'stored',
        'created_at',
        'expires_at',
        'download_url',
      ],
    ),
    ErrorInFile: object({
      error: object(
        {
          code: { type: 'string', enum: [...REQUEST_ERROR_CODES] },
          message: string(),
          details: { type: 'object' },
          request_id: string(),
        },
        ['code', 'message'],
      ),
    }),
    SpecVersions: object({
      current: { type: 'string', enum: [...SPEC_VERSIONS] },
      versions: { type: 'array', items: { type: 'string', enum: [...SPEC_VERSIONS] } },
    }),
    SpecDescription: object({
      spec_version: string(),
      kinds: {
        type: 'array',
        items: object({
          type: { type: 'string', enum: [...FILE_TYPES] },
          declarant: { type: 'string', enum: [...DECLARANTS] },
          columns: {
            type: 'array',
            items: object({
              position: { type: 'integer', minimum: 1 },
              name: string('Official column name.'),
              labels: object({
                fr: string('Label in French (row 2 of the spreadsheet template).'),
                en: string('Label in English.'),
              }),
              field: string('Where the value comes from in the JSON body.'),
              level: { type: 'string', enum: ['declaration', 'holder'] },
              required: string('required, optional, empty, or the condition.'),
              max_length: { type: 'integer', nullable: true },
              allowed_values: { type: 'array', items: { type: 'string' }, nullable: true },
              value_count: { ...object({ min: integer(), max: integer() }), nullable: true },
              reference_list: {
                anyOf: [{ type: 'string', enum: [...REFERENCE_LIST_NAMES] }, { enum: [null] }],
              },
            }),
          },
        }),
      },
      enumerations: {
        type: 'object',
        additionalProperties: { type: 'array', items: object({ code: string(), label: string() }) },
      },
      limits: counts(),
      reference_lists: {
        type: 'array',
        items: object({
          name: { type: 'string', enum: [...REFERENCE_LIST_NAMES] },
          source: string(),
          version: string(),
          count: integer(),
          complete: {
            type: 'boolean',
            description:
              'A complete list refuses unknown codes; a partial one only warns (REFERENCE_NOT_VERIFIED).',
          },
        }),
      },
    }),
    ReferencePage: object({
      items: { type: 'array', items: object({ code: string(), label: string() }) },
      next_cursor: nullableString('Pass as `cursor` for the next page; null on the last.'),
    }),
    Health: object({ status: { type: 'string', enum: ['ok'] }, spec_version: string() }),
    Live: object({ status: { type: 'string', enum: ['ok'] } }),
    Readiness: object({
      status: { type: 'string', enum: ['ready', 'unavailable'] },
      checks: object(
        {
          database: { type: 'string', enum: ['up', 'down'] },
          redis: { type: 'string', enum: ['up', 'down'] },
          storage: { type: 'string', enum: ['up', 'down'] },
          body_budget: {
            type: 'string',
            enum: ['up', 'down'],
            description:
              "The gateway's memory budget for request bodies: down when a body has been held longer than any answer can take (a leak: restart the process).",
          },
        },
        ['database', 'redis', 'storage'],
      ),
      down: {
        type: 'array',
        items: { type: 'string', enum: ['database', 'redis', 'storage', 'body_budget'] },
      },
    }),
    ...Object.fromEntries(Object.keys(ERROR_RESPONSES).map((s) => [`Error${s}`, errorSchema(Number(s))])),
    ...Object.fromEntries(
      Object.entries(NARROW_ERRORS).map(([name, n]) => [name, errorSchema(n.status, n.codes)]),
    ),
  };
}

const HEADERS = {
  'X-Request-Id': {
    description: 'The request id (yours when you sent a safe `X-Request-Id`), also in every error body.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per minute (the tighter of the key and its organization).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  Location: { description: 'The file resource to poll: /v1/files/{id}.', schema: { type: 'string' } },
  ETag: { description: 'The quoted SHA-256 of the file.', schema: { type: 'string' } },
  'Content-Disposition': {
    description: 'attachment; filename="<official file name>"',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Preference-Applied': {
    description: '`respond-async` when the 202 follows `Prefer: respond-async`.',
    schema: { type: 'string' },
  },
} as const;
type HeaderName = keyof typeof HEADERS;

/** The header components the operations refer to (only those go into the document). */
let usedHeaders = new Map<string, { name: HeaderName; required: boolean }>();
const header = (name: HeaderName, required: boolean) => {
  usedHeaders.set(headerKey(name, required), { name, required });
  return ref('headers', headerKey(name, required));
};
const headerKey = (name: HeaderName, required: boolean) =>
  `${name.replace(/-/g, '')}${required ? '' : 'Optional'}`;

/** Response headers: X-Request-Id always; the rate-limit headers on /v1 (not when a dependency or the server failed first). */
function responseHeaders(
  api: boolean,
  status: number,
  extra: HeaderName[] = [],
  optional: HeaderName[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { 'X-Request-Id': header('X-Request-Id', true) };
  if (api) {
    const limited = status !== 500 && status !== 503;
    for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const)
      out[h] = header(h, limited);
  }
  for (const h of extra) out[h] = header(h, true);
  for (const h of optional) out[h] = header(h, false);
  return out;
}

/** The multipart form of an upload (validate, fix, import): the file and the kind, plus a route's own fields. */
function uploadForm(
  file: string,
  extra: Record<string, unknown> = {},
  contentType = 'text/csv, application/octet-stream',
): Record<string, unknown> {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', 'type', 'declarant'],
          additionalProperties: false,
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              description: `${file} (at most ${LIMITS.maxBytes / 1024 / 1024} MB).`,
            },
            type: { type: 'string', enum: [...FILE_TYPES] },
            declarant: { type: 'string', enum: [...DECLARANTS] },
            strict_references: {
              type: 'boolean',
              default: true,
              description: 'false: unknown codes of complete lists are warnings, not errors.',
            },
            spec_version: { type: 'string', enum: [...SPEC_VERSIONS], default: CURRENT_SPEC_VERSION },
            ...extra,
          },
        },
        encoding: { file: { contentType } },
      },
    },
  };
}

function json(schema: unknown, example?: unknown): Record<string, unknown> {
  return { 'application/json': { schema, ...(example === undefined ? {} : { example }) } };
}

/** The error responses of an /v1 operation, each with its headers. */
/**
 * Where an operation can meet only some of a status's codes (a download's 409 is never an
 * idempotency conflict), its answer names a narrower error schema, so that a generated client's
 * types list only the codes that can happen there.
 */
const NARROW_ERRORS = {
  Error404NotFound: { status: 404, codes: ['NOT_FOUND'] },
  Error409Idempotency: { status: 409, codes: ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'] },
  Error409FileNotAvailable: { status: 409, codes: ['FILE_NOT_AVAILABLE'] },
} satisfies Record<string, { status: number; codes: RequestErrorCode[] }>;
type NarrowError = keyof typeof NARROW_ERRORS;

function errors(
  statuses: number[],
  narrow: Partial<Record<number, NarrowError>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of statuses) {
    const narrowed = narrow[status];
    const codes: readonly RequestErrorCode[] = narrowed ? NARROW_ERRORS[narrowed].codes : codesOf(status);
    // Retry-After: always with 503; with 429 for RATE_LIMIT_EXCEEDED (a monthly QUOTA_EXCEEDED has
    // none: retrying soon will not help); with 409 for a file still processing.
    const extra: HeaderName[] = status === 503 ? ['Retry-After'] : [];
    const optional: HeaderName[] = status === 409 || status === 429 ? ['Retry-After'] : [];
    out[String(status)] = {
      description: `${ERROR_RESPONSES[status]!.description} Codes: ${codes.join(', ')}.`,
      headers: responseHeaders(true, status, extra, optional),
      content: json(schemaRef(narrowed ?? `Error${status}`)),
    };
  }
  return out;
}

const COMMON_ERRORS = [401, 429, 500, 503];
const BEARER = [{ bearerAuth: [] }];

function operations(): Record<string, Record<string, Operation>> {
  const body = {
    required: true,
    content: {
      'application/json': {
        schema: schemaRef('DeclarationBody'),
        examples: {
          employer_adf: {
            summary: 'An employer files an attestation of training (adf)',
            value: OPENAPI_EXAMPLES.employerAdf,
          },
          training_organization_jdr: {
            summary: 'A training organization files proofs of success (jdr)',
            value: OPENAPI_EXAMPLES.trainingOrganizationJdr,
          },
        },
      },
    },
  };
  const version = {
    name: 'version',
    in: 'path',
    required: true,
    description: 'A format version (GET /v1/spec lists them).',
    schema: { type: 'string', example: CURRENT_SPEC_VERSION },
  };
  const fileId = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The `file_id` of a generate response.',
    schema: { type: 'string', pattern: '^file_[A-Za-z0-9]+$' },
  };
  const ok = (
    description: string,
    schema: unknown,
    extra: HeaderName[] = [],
    optional: HeaderName[] = [],
    example?: unknown,
  ) => ({
    description,
    headers: responseHeaders(true, 200, extra, optional),
    content: json(schema, example),
  });
  return {
    '/v1/spec': {
      get: {
        operationId: 'listSpecVersions',
        tags: ['spec'],
        summary: 'Format versions',
        description: 'The format versions this server knows and the current one (docs/api.md, "Versioning").',
        security: BEARER,
        responses: { '200': ok('The versions.', schemaRef('SpecVersions')), ...errors(COMMON_ERRORS) },
      },
    },
    '/v1/spec/{version}': {
      get: {
        operationId: 'describeSpec',
        tags: ['spec'],
        summary: 'Columns, enumerations, limits and reference lists of a format version',
        description:
          'For each kind (adf, jdr × employer, training organization): its columns in order with their rules; the enumerations; the limits; each reference list with its source, version, size and completeness.',
        security: BEARER,
        parameters: [version],
        responses: {
          '200': ok('The format version.', schemaRef('SpecDescription')),
          ...errors([400, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/spec/{version}/template': {
      get: {
        operationId: 'downloadTemplate',
        tags: ['spec'],
        summary: 'The XLSX template of one kind of file, to fill in a spreadsheet',
        description:
          'Sheet `Declarations`: row 1 the official column names in order, row 2 their French labels, data from row 3; a drop-down list for every enumeration; date columns `dd/mm/yyyy`; NIR, SIRET and code columns text. Sheet `Instructions` in French, then English. Filled and sent to `POST /v1/declarations/import`, it gives the body `generate` takes. Free.',
        security: BEARER,
        parameters: [
          version,
          {
            name: 'type',
            in: 'query',
            required: true,
            description: 'The kind of file.',
            schema: { type: 'string', enum: [...FILE_TYPES] },
          },
          {
            name: 'declarant',
            in: 'query',
            required: true,
            description: 'Who declares.',
            schema: { type: 'string', enum: [...DECLARANTS] },
          },
        ],
        responses: {
          '200': {
            description: 'The workbook (`ppfile_template_<type>_<declarant>_<version>.xlsx`).',
            headers: responseHeaders(true, 200, ['Content-Disposition']),
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', format: 'binary' },
              },
            },
          },
          ...errors([400, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/spec/{version}/references/{list}': {
      get: {
        operationId: 'searchReferences',
        tags: ['spec'],
        summary: 'Codes of a reference list, filtered and paged',
        description:
          'Searches a reference list (formacode, nsf, rome, rs) by code or label words; pages follow `next_cursor`.',
        security: BEARER,
        parameters: [
          version,
          {
            name: 'list',
            in: 'path',
            required: true,
            description: 'The list.',
            schema: { type: 'string', enum: [...REFERENCE_LIST_NAMES] },
          },
          {
            name: 'q',
            in: 'query',
            required: false,
            description: 'Words of the label, or the start of a code.',
            schema: { type: 'string' },
            example: 'secourisme',
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Items per page.',
            schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
          },
          {
            name: 'cursor',
            in: 'query',
            required: false,
            description: 'The `next_cursor` of the previous page.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': ok('One page of codes.', schemaRef('ReferencePage')),
          ...errors([400, 404, ...COMMON_ERRORS], { 404: 'Error404NotFound' }),
        },
      },
    },
    '/v1/declarations/validate': {
      post: {
        operationId: 'validateDeclarations',
        tags: ['declarations'],
        summary: 'Validate declarations (JSON) without producing a file',
        description:
          'Applies every rule of the portal to the rows the body would produce and answers with each error and warning, located by row, column and JSON field. Free of charge; nothing is stored.',
        security: BEARER,
        requestBody: body,
        responses: {
          '200': ok('The validation result (valid or not).', schemaRef('DeclarationValidationResponse')),
          ...errors([400, 408, 413, 415, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/declarations/import': {
      post: {
        operationId: 'importDeclarations',
        tags: ['declarations'],
        summary: 'Read a spreadsheet (XLSX, CSV or TSV) into the body generate takes',
        description:
          'Headers are recognized by official name, JSON field, label or a documented synonym (`mapping` overrides); rows sharing `ID_DECLARATION` form one declaration; every issue and every validation entry names its `cell`. A workbook that is not a readable XLSX or CSV, or that would expand past 200 MB or hold more than 1,000,000 cells (a workbook’s cell elements, a CSV’s non-empty fields), is `400 UNREADABLE_FILE`. Nothing is stored; free for every key.',
        security: BEARER,
        requestBody: uploadForm(
          'The spreadsheet: XLSX, or CSV/TSV (separator `,` `;` `|` or tab; UTF-8 with or without BOM, or Windows-1252)',
          {
            sheet: {
              type: 'string',
              description: 'The sheet to read; default: the first with a recognizable header row.',
            },
            mapping: {
              type: 'string',
              description:
                'A JSON object `{ "<header text>": "<official column name>" }` overriding detection; `null` ignores a header.',
              example: '{"N° sécu": "NIR"}',
            },
          },
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, text/csv, text/tab-separated-values',
        ),
        responses: {
          '200': ok('The body, where each value came from, and its validation.', schemaRef('ImportResponse')),
          ...errors([400, 408, 413, 415, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/files/generate': {
      post: {
        operationId: 'generateFile',
        tags: ['files'],
        summary: 'Generate the official CSV file from declarations',
        description:
          'Validates, then writes the file byte for byte as the portal expects; stores it for `options.retention_hours` (or returns it in `content` with `options.store: false`). ' +
          'One unit per row with a live key; test keys count nothing (50 rows a request). With `Idempotency-Key`, a retry answers the same file and counts nothing again. ' +
          'Large requests go through the workers; with `Prefer: respond-async` the answer is 202 at once, then poll the `Location`.',
        security: BEARER,
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Up to 255 visible ASCII characters; the same key with the same body answers the same file.',
            schema: { type: 'string', maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
          },
          {
            name: 'Prefer',
            in: 'header',
            required: false,
            description: '`respond-async`: answer 202 at once instead of waiting for a large file.',
            schema: { type: 'string', example: 'respond-async' },
          },
        ],
        requestBody: body,
        responses: {
          '200': ok('The file.', schemaRef('GenerateResponse'), [], ['Idempotent-Replayed']),
          '202': {
            description:
              'Accepted: the file is being produced (`Prefer: respond-async`, or a synchronous wait that ran out). Poll `Location`.',
            headers: responseHeaders(
              true,
              202,
              ['Location', 'Retry-After'],
              ['Preference-Applied', 'Idempotent-Replayed'],
            ),
            content: json(schemaRef('GenerateAccepted')),
          },
          ...errors([400, 408, 409, 413, 415, 422, ...COMMON_ERRORS], { 409: 'Error409Idempotency' }),
        },
      },
    },
    '/v1/files/validate': {
      post: {
        operationId: 'validateFile',
        tags: ['files'],
        summary: 'Validate a CSV file as it would be filed',
        description:
          'Checks an official CSV file (encoding, separator, header, name, every cell). Analysed in memory, never written to disk. One unit per row analysed with a live key.',
        security: BEARER,
        requestBody: uploadForm('The CSV'),
        responses: {
          '200': ok('The validation result.', schemaRef('FileValidationResponse')),
          ...errors([400, 408, 413, 415, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/files/fix': {
      post: {
        operationId: 'fixFile',
        tags: ['files'],
        summary: 'Apply the normalizations to an official CSV, list every change, and validate the result',
        description:
          "The same form as `POST /v1/files/validate`. Only the normalizations of API.md §5 are applied (dates to dd/mm/yyyy, enumeration case, NSF/RS code case, separators and a correct key removed from NIRs and SIRETs, white space, NFC), and the file's own: LF line endings to CRLF, a UTF-8 BOM removed, Windows-1252 re-encoded as UTF-8. A wrong code, a name, an impossible date or a wrong key stays as it was and stays an error of `validation`. A file rejected as a whole for a reason fixing cannot mend (header, column count) has no `content`. Analysed in memory, never written to disk; counted as a validation (one unit per row analysed with a live key).",
        security: BEARER,
        requestBody: uploadForm('The official CSV to fix'),
        responses: {
          '200': ok('The fixed file, its changes and its validation.', schemaRef('FixResponse')),
          ...errors([400, 408, 413, 415, ...COMMON_ERRORS]),
        },
      },
    },
    '/v1/files/{id}': {
      get: {
        operationId: 'getFile',
        tags: ['files'],
        summary: "A file's metadata and status",
        description:
          'processing → available | failed → expired, or not_stored. Only the key that created the file sees it.',
        security: BEARER,
        parameters: [fileId],
        responses: {
          '200': ok('The file.', schemaRef('FileMetadata')),
          ...errors([400, 404, ...COMMON_ERRORS], { 404: 'Error404NotFound' }),
        },
      },
    },
    '/v1/files/{id}/download': {
      get: {
        operationId: 'downloadFile',
        tags: ['files'],
        summary: 'Download the CSV, byte for byte as generated',
        description:
          'Only with the key that created the file, while it is available. `If-None-Match` with its ETag answers 304.',
        security: BEARER,
        parameters: [
          fileId,
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'The ETag of a copy you have: 304 when it is this file.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'The file (UTF-8, `|` separated, CRLF).',
            headers: responseHeaders(true, 200, ['ETag', 'Content-Disposition']),
            content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
          },
          '304': {
            description: 'Not modified: the copy of `If-None-Match` is this file.',
            headers: responseHeaders(true, 304, ['ETag']),
          },
          ...errors([400, 404, 409, 410, ...COMMON_ERRORS], { 409: 'Error409FileNotAvailable' }),
        },
      },
    },
    '/health/live': {
      get: {
        operationId: 'live',
        tags: ['health'],
        summary: 'The process runs',
        description: 'Liveness: 200 as long as the process serves.',
        security: [],
        responses: {
          '200': {
            description: 'Alive.',
            headers: responseHeaders(false, 200),
            content: json(schemaRef('Live')),
          },
        },
      },
    },
    '/health/ready': {
      get: {
        operationId: 'ready',
        tags: ['health'],
        summary: 'PostgreSQL, Redis and the object store answer',
        description: 'Readiness: 503 naming what is down, so that a load balancer stops sending traffic.',
        security: [],
        responses: {
          '200': {
            description: 'Ready.',
            headers: responseHeaders(false, 200),
            content: json(schemaRef('Readiness')),
          },
          '503': {
            description: 'A dependency is down.',
            headers: responseHeaders(false, 503, ['Retry-After']),
            content: json(schemaRef('Readiness')),
          },
        },
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        tags: ['health'],
        summary: 'The process runs (kept for existing probes)',
        description: 'Like /health/live, with the current format version.',
        security: [],
        responses: {
          '200': {
            description: 'Alive.',
            headers: responseHeaders(false, 200),
            content: json(schemaRef('Health')),
          },
        },
      },
    },
  };
}

/** The version of the HTTP API's contract (the paths say v1); the format versions are GET /v1/spec's. */
export const API_VERSION = '1.0.0';

/** An error schema no operation answers with (every 409 is narrowed) is left out of the document. */
function withoutUnusedErrors(
  all: ReturnType<typeof schemas>,
  paths: Record<string, Record<string, Operation>>,
): ReturnType<typeof schemas> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(
    Object.entries(all).filter(
      ([name]) => !/^Error\d{3}/.test(name) || text.includes(`"#/components/schemas/${name}"`),
    ),
  );
}

export function buildOpenApiDocument(options: { serverUrl?: string } = {}): OpenApiDocument {
  usedHeaders = new Map();
  const paths = operations();
  const headers: Record<string, unknown> = {};
  for (const [key, { name, required }] of [...usedHeaders].sort(([a], [b]) => a.localeCompare(b))) {
    headers[key] = { ...HEADERS[name], required };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'ppfile',
      version: API_VERSION,
      description:
        'Generates and validates CSV files in the official bulk-import format of the Passeport de Prévention portal ' +
        '(attestations of training, adf, and proofs of success, jdr). Nothing is ever submitted to the portal.\n\n' +
        `Limits: ${LIMITS.maxRowsLive.toLocaleString('en')} rows a request (${LIMITS.maxRowsTest} with a test key), ` +
        `${LIMITS.maxBytes / 1024 / 1024} MB a body, files kept at most ${LIMITS.maxRetentionHours} h. ` +
        `Formula policies: ${FORMULA_POLICIES.join(', ')}. Errors: one JSON body for every status, with a stable \`code\`.`,
      license: { name: 'UNLICENSED (proprietary)' },
      contact: { name: 'ppfile operators' },
    },
    // Relative by default: Swagger UI and generated clients call the origin that served the document.
    servers: [{ url: options.serverUrl ?? '/', description: 'This gateway' }],
    tags: [
      { name: 'spec', description: 'The official format: columns, rules, reference lists.' },
      { name: 'declarations', description: 'Checking declarations without producing a file.' },
      { name: 'files', description: 'Generating, validating and downloading files.' },
      { name: 'health', description: 'Probes for orchestrators and load balancers.' },
    ],
    security: BEARER,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `pp_live_…` or `pp_test_…` (created by an operator or in the dashboard).',
        },
      },
      schemas: withoutUnusedErrors(schemas(), paths),
      headers,
    },
  };
}
