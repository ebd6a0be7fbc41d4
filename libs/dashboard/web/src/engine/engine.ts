/**
 * The engine: what the API answers for validate, import and validate-body, computed in the browser
 * by the same libraries (libs/rules, libs/sheets) with the same environment as a live key: the
 * server's Paris day, the caller's language, CURRENT_LIMITS' live row limit, the reference lists
 * the gateway serves (issue 36). A refusal is the API's error (status, code, message, details).
 * No DOM, no messages: engine.worker.ts carries it; tests may run it anywhere.
 */
import { ApiError, REQUEST_ERROR_STATUS } from '@ppfile/contract/errors';
import {
  countDataLines,
  createCsvValidator,
  createReferenceLists,
  CURRENT_LIMITS,
  normalizeBody,
  parseIsoDate,
  REFERENCE_LIST_NAMES,
  RequestError,
  validateDeclarations,
  type FileValidationResponse,
  type ReferenceListInput,
  type ReferenceListName,
  type ReferenceLists,
  type RulesEnvironment,
} from '@ppfile/rules';
import { importSheetLocated, type DeclarationBody, type LocatedImport } from '@ppfile/sheets';
import type {
  CsvForm,
  EngineErrorBody,
  EngineLang,
  EngineResults,
  ImportForm,
  NormalizeResult,
} from './protocol';

/** The reference lists asset the gateway serves (`/dashboard/static/reference-lists-<spec>.<hash>.json`). */
export interface ReferenceListsAsset {
  spec_version: string;
  lists: Record<ReferenceListName, { source: string; version: string; complete: boolean; codes: string }>;
}

export type Progress = (done: number, total: number) => void;

/** Bytes of a CSV checked between two progress reports (the gateway's slice, libs/jobs VALIDATE_SLICE_BYTES). */
export const SLICE_BYTES = 256 * 1024;

/** The largest upload the API reads (its multipart limit, SERVICE.md §8): 20 MB, the spec's limit. */
const MAX_UPLOAD_BYTES = CURRENT_LIMITS.maxBytes;

export function referenceListsOf(asset: ReferenceListsAsset): ReferenceLists {
  const input = {} as Record<ReferenceListName, ReferenceListInput>;
  for (const name of REFERENCE_LIST_NAMES) {
    const list = asset.lists[name];
    if (!list) throw new Error(`The reference lists asset has no ${name} list.`);
    const codes = list.codes === '' ? [] : list.codes.split('\n');
    input[name] = {
      source: list.source,
      version: list.version,
      complete: list.complete,
      entries: codes.map((code) => [code, ''] as const),
    };
  }
  return createReferenceLists(input);
}

/** An error of the engine as the API's error body would say it. */
export function errorBody(e: unknown, lang: EngineLang): EngineErrorBody {
  if (e instanceof RequestError) e = ApiError.from(e);
  if (e instanceof ApiError) {
    return { status: e.status, code: e.code, message: e.messageIn(lang), details: e.details };
  }
  return {
    status: REQUEST_ERROR_STATUS.INTERNAL_ERROR,
    code: 'INTERNAL_ERROR',
    message: new ApiError('INTERNAL_ERROR').messageIn(lang),
    details: {},
  };
}

export class Engine {
  private readonly env: RulesEnvironment & { lang: EngineLang; maxRows: number };

  constructor(
    readonly asset: ReferenceListsAsset,
    today: string,
    readonly lang: EngineLang,
  ) {
    const day = parseIsoDate(today);
    if (day === null) throw new Error(`today must be YYYY-MM-DD, not ${JSON.stringify(today)}.`);
    this.env = { refs: referenceListsOf(asset), today: day, lang, maxRows: CURRENT_LIMITS.maxRowsLive };
  }

  info(): EngineResults['init'] {
    const lists: EngineResults['init']['lists'] = {};
    for (const name of REFERENCE_LIST_NAMES) {
      const { complete, version } = this.asset.lists[name];
      lists[name] = { complete, version };
    }
    return { spec_version: this.asset.spec_version, lists };
  }

  /** POST /v1/files/validate with a live key (apps/gateway UploadValidation.validate, minus the units). */
  validateCsv(bytes: Uint8Array, form: CsvForm, progress?: Progress): FileValidationResponse {
    checkUploadSize(bytes);
    const limit = this.env.maxRows;
    const validator = createCsvValidator(
      {
        type: form.type,
        declarant: form.declarant,
        strict_references: form.strict_references,
        filename: form.filename,
      },
      this.env,
    );
    const lines = countDataLines(bytes);
    if (lines > limit) throw new ApiError('LINE_LIMIT_EXCEEDED', { limit }, { limit, rows: lines });
    progress?.(0, bytes.length);
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      validator.write(bytes.subarray(at, at + SLICE_BYTES));
      progress?.(Math.min(at + SLICE_BYTES, bytes.length), bytes.length);
    }
    return validator.end();
  }

  /**
   * POST /v1/declarations/import with a live key: `result` its answer; `located` where each holder
   * and column of the body was in the sheet (not part of the answer).
   */
  importSheet(bytes: Uint8Array, form: ImportForm, progress?: Progress): LocatedImport {
    checkUploadSize(bytes);
    progress?.(0, 1);
    const result = importSheetLocated(
      bytes,
      {
        type: form.type,
        declarant: form.declarant,
        strict_references: form.strict_references,
        sheet: form.sheet,
        mapping: form.mapping,
        filename: form.filename,
      },
      this.env,
    );
    progress?.(1, 1);
    return result;
  }

  /** POST /v1/declarations/validate with a live key, strict_references set as the page asks. */
  validateBody(body: DeclarationBody, strict: boolean, progress?: Progress): EngineResults['validate-body'] {
    progress?.(0, 1);
    const raw = body as unknown as Record<string, unknown>;
    const options = isObject(raw.options) ? raw.options : {};
    const result = validateDeclarations(
      { ...raw, options: { ...options, strict_references: strict } },
      this.env,
    );
    progress?.(1, 1);
    return result;
  }

  normalizeBody(body: DeclarationBody): NormalizeResult {
    return normalizeBody(body, this.lang);
  }
}

function checkUploadSize(bytes: Uint8Array): void {
  if (bytes.byteLength > MAX_UPLOAD_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', { limit: MAX_UPLOAD_BYTES }, {});
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
