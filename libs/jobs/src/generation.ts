import { monthOf, type FileRecord, type Prisma, type Stores } from '@ppfile/db';
import {
  errorBody,
  generateFromRequest,
  type GeneratedFile,
  parisDay,
  RequestError,
  type DeclarationRequest,
  type Issue,
  type Lang,
  type Normalization,
  type ReferenceLists,
} from '@ppfile/rules';
import type { ObjectStorage } from '@ppfile/storage';

export interface GenerationContext {
  stores: Stores;
  storage: ObjectStorage;
  references: (specVersion: string) => ReferenceLists;
  now: () => Date;
}

/** What a finished generation tells the request that waits for it (no personal value in it). */
export type GenerationOutcome = ProducedOutcome | FailedOutcome;
export type ProducedOutcome = Exclude<RawOutcome, { status: 'failed' }>;
export type FailedOutcome = Extract<RawOutcome, { status: 'failed' }>;
type RawOutcome =
  | {
      status: 'available' | 'not_stored';
      spec_version: string;
      rows: number;
      declarations: number;
      sha256: string;
      expires_at: string | null;
      warning_count: number;
      warnings: Issue[];
      normalization_count: number;
      normalizations: Normalization[];
    }
  | { status: 'failed'; http_status: number; error: ReturnType<typeof errorBody>['error'] };

export const objectKeyOf = (fileId: string): string => `files/${fileId}.csv`;
const CSV_TYPE = 'text/csv; charset=utf-8';

/** Generates in memory (throws RequestError, e.g. VALIDATION_FAILED): nothing is written yet. */
export function generateInMemory(ctx: GenerationContext, request: DeclarationRequest, lang: Lang, generationDay: Date): GeneratedFile {
  return generateFromRequest(request, {
    refs: ctx.references(request.spec.version),
    today: parisDay(ctx.now()),
    generationDay: parisDay(generationDay),
    lang,
  });
}

/**
 * Stores a generated file for its record (created `processing`, units reserved) and marks it
 * available, or not_stored. Safe to run twice: the object key is fixed and every state change is
 * conditional; a record no longer processing is left as it is and nothing is written.
 */
export async function persistGeneration(ctx: GenerationContext, record: FileRecord, file: GeneratedFile): Promise<ProducedOutcome> {
  const stored = file.options.store;
  const summary = { sha256: file.sha256, units: record.units, rows: file.rows, declarations: file.declarations };
  if (record.status === 'processing') {
    if (stored) {
      const objectKey = objectKeyOf(record.id);
      const expiresAt = new Date(ctx.now().getTime() + file.options.retention_hours * 3600_000);
      await ctx.storage.put(objectKey, file.content, CSV_TYPE);
      if (!(await ctx.stores.files.markAvailable(record.id, { ...summary, objectKey, expiresAt }))) {
        // Another run finished first, or the record failed meanwhile: leave no orphan object.
        const current = await ctx.stores.files.getFileRecord(record.id);
        if (current?.status !== 'available') await ctx.storage.remove(objectKey);
      }
    } else {
      await ctx.stores.files.markNotStored(record.id, summary);
    }
  }
  const final = (await ctx.stores.files.getFileRecord(record.id)) ?? record;
  return outcomeOf(file, final.expiresAt);
}

/** The outcome of a produced file, as the request that waits for it is answered (no personal value). */
export function outcomeOf(file: GeneratedFile, expiresAt: Date | null): ProducedOutcome {
  return {
    status: file.options.store ? 'available' : 'not_stored',
    spec_version: file.spec_version,
    rows: file.rows,
    declarations: file.declarations,
    sha256: file.sha256,
    expires_at: expiresAt ? expiresAt.toISOString() : null,
    warning_count: file.warning_count,
    warnings: file.warnings,
    normalization_count: file.normalization_count,
    normalizations: file.normalizations,
  };
}

/**
 * A queued generation (the worker's job): generate, then store — or end the record `failed` with
 * the error body the request would have had when its rows are invalid (deterministic: no retry).
 */
export async function runGeneration(
  ctx: GenerationContext,
  fileId: string,
  request: DeclarationRequest,
  lang: Lang,
  requestId: string,
): Promise<GenerationOutcome> {
  const record = await ctx.stores.files.getFileRecord(fileId);
  if (!record) throw new Error(`file record ${fileId} not found`);
  let file: GeneratedFile;
  try {
    file = generateInMemory(ctx, request, lang, record.createdAt);
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    const error = errorBody(e, requestId).error;
    await failGeneration(ctx, record, { error });
    return { status: 'failed', http_status: e.status, error };
  }
  return persistGeneration(ctx, record, file);
}

/**
 * Ends a generation `failed` with the HTTP error body it would have had (API.md §7): its reserved
 * units go back and its object, if any, is deleted. Only the run that makes the transition does so.
 */
export async function failGeneration(
  ctx: GenerationContext,
  record: FileRecord,
  error: { error: ReturnType<typeof errorBody>['error'] },
): Promise<void> {
  if (!(await ctx.stores.files.markFailed(record.id, error as unknown as Prisma.InputJsonValue))) return;
  if (record.units > 0) await ctx.stores.usage.releaseUnits(record.organizationId, monthOf(record.createdAt), record.units);
  await ctx.storage.remove(objectKeyOf(record.id));
}

/** Deletes expired objects and marks their records expired (SERVICE.md §3); safe to run twice. */
export async function sweepExpired(ctx: GenerationContext, limit = 200): Promise<number> {
  const now = ctx.now();
  let done = 0;
  for (const record of await ctx.stores.files.listExpired(now, limit)) {
    if (record.objectKey) await ctx.storage.remove(record.objectKey);
    if (await ctx.stores.files.markExpired(record.id)) done++;
  }
  await ctx.stores.idempotency.purgeExpired(now);
  return done;
}
