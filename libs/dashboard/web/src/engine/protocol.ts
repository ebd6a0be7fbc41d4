/**
 * The messages between a page and the engine worker (engine.worker.ts): the format's rules, the
 * spreadsheet import and the reference lists, run in the browser exactly as the API runs them. Every
 * result is the API's JSON for the same input (issue 36): a page shows what the API would answer,
 * and nothing of the file leaves the computer to get it.
 */
import type { BodyValueChange, DeclarationValidationResponse, FileValidationResponse } from '@ppfile/rules';
import type { DeclarationBody, ImportResult, LocatedImport, SheetLocation } from '@ppfile/sheets';

export type {
  DeclarationBody,
  LocatedImport,
  DeclarationValidationResponse,
  FileValidationResponse,
  ImportResult,
  SheetLocation,
};

export type EngineLang = 'en' | 'fr';

export interface EngineInit {
  /** The reference lists asset (`/dashboard/static/reference-lists-<spec>.<hash>.json`). */
  listsUrl: string;
  /** YYYY-MM-DD: the server's Paris day, the `today` the API checks dates against. */
  today: string;
  lang: EngineLang;
}

/** The form fields of POST /v1/files/validate. */
export interface CsvForm {
  type: string;
  declarant: string;
  strict_references: boolean;
  filename: string;
}

/** The form fields of POST /v1/declarations/import. */
export interface ImportForm extends CsvForm {
  sheet?: string;
  mapping?: Record<string, string | null>;
}

export type EngineRequest =
  | { id: number; op: 'init'; init: EngineInit }
  | { id: number; op: 'validate-csv'; bytes: ArrayBuffer; form: CsvForm }
  | { id: number; op: 'import'; bytes: ArrayBuffer; form: ImportForm }
  | { id: number; op: 'validate-body'; body: DeclarationBody; strict_references: boolean }
  | { id: number; op: 'normalize-body'; body: DeclarationBody };

export type EngineOp = EngineRequest['op'];

/**
 * One value the §5 normalizations changed (API.md §5, SERVICE.md §2.6): libs/rules normalizeBody's
 * BodyValueChange — `row` the declaration's index, 1-based; `field` the value's request path as the
 * API's `normalizations[].field` names it (`declarations[0].holders[1].nir`); `column` the official
 * column; `rule` the first rule that changed it and `rules` all of them (the engine always sends
 * them); `from` and `to` the values.
 */
export type BodyChange = Omit<BodyValueChange, 'rule' | 'rules'> & { rule: string; rules?: string[] };

export interface NormalizeResult {
  body: DeclarationBody;
  changes: BodyChange[];
}

/** What each op answers. `init` answers the lists it loaded (names and completeness). */
export interface EngineResults {
  init: { spec_version: string; lists: Record<string, { complete: boolean; version: string }> };
  'validate-csv': FileValidationResponse;
  import: ImportResult;
  'validate-body': DeclarationValidationResponse;
  'normalize-body': NormalizeResult;
}

/** The API's error body (a RequestError as the gateway would answer it). */
export interface EngineErrorBody {
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

/**
 * An answer. `result` is the op's EngineResults entry, the API's JSON; the `import` op's reply also
 * carries `located`, beside it and not in it: where each holder and column of the body was in the
 * sheet (libs/sheets importSheetLocated), which the API's answer does not say.
 */
export type EngineReply =
  | { id: number; type: 'progress'; done: number; total: number }
  | { id: number; type: 'result'; result: unknown; located?: SheetLocation }
  | { id: number; type: 'error'; error: EngineErrorBody };
