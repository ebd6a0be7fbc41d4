/**
 * The Build page: kind → spreadsheet → mapping → problems and grid (edit, check again, safe fixes) →
 * Generate. The file is read and checked in the engine worker; nothing of it leaves the page before
 * Generate (use-generate.ts sends the only request that carries data).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DeclarationBody, DeclarationValidationResponse, ImportResult } from '../engine/protocol';
import { EngineError } from '../engine/engine-client';
import { ENGINE_FAILURE_TEXTS, engineFailure, refusalText } from '../engine/engine-errors';
import { fileTooLarge } from '../engine/file-size';
import { RowIndex, kindColumns, setCell } from './body-grid';
import type { BuildConfig } from './config';
import { DataSection, type Fix } from './data-section';
import { FileDrop } from './file-drop';
import { GeneratePanel } from './generate-panel';
import type { GridTarget } from './grid';
import { KindPicker } from './kind-picker';
import { changedMapping, mappingOf, mappingToSave, sameMapping } from './mapping';
import { MappingPanel } from './mapping-panel';
import {
  changeRow,
  importProblems,
  problemsByCell,
  sheetPlaces,
  validationProblems,
  type Problem,
  type SheetPlaces,
} from './problems';
import { ProblemsPanel, type ProblemCounts } from './problems-panel';
import { ProgressBar, type Busy } from './progress-bar';
import { ServerError, type HeaderMapping, type Kind } from './server';
import { textsFor, type Texts } from './texts';
import { useEngine } from './use-engine';
import { useGenerate } from './use-generate';
import { useSavedMapping } from './use-saved-mapping';
import { useSession } from './use-session';

/** What the page holds of the file once read: sent nowhere but to Generate. */
interface Built {
  result: ImportResult;
  body: DeclarationBody;
  index: RowIndex;
  places: SheetPlaces;
  problems: Problem[];
  counts: ProblemCounts;
  /** Edited since the last check: Generate waits for a check. */
  edited: boolean;
}

function countsOf(v: DeclarationValidationResponse, extraWarnings = 0): ProblemCounts {
  return {
    errors: v.error_count,
    warnings: v.warning_count + extraWarnings,
    truncated: v.truncated,
    summary: v.summary,
  };
}

function messageOf(error: unknown, t: Texts): string {
  // An answer with no message (no JSON, an empty statusText): said from its status.
  if (error instanceof ServerError && !error.message) return t.httpStatus(error.status);
  return error instanceof Error ? error.message : String(error);
}

export function BuildApp({ config }: { config: BuildConfig }) {
  const t = textsFor(config.lang);
  const engine = useEngine(config);
  const mappings = useSavedMapping(config);
  const [kind, setKind] = useState<Kind>({ type: 'adf', declarant: 'training_organization' });
  /** strict_references of the import and of each check: the API's default, saved nowhere. */
  const [strict, setStrict] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<Busy | null>(null);
  const [built, setBuilt] = useState<Built | null>(null);
  // The session is kept alive while a file is open (use-session.ts).
  const session = useSession(config, built !== null);
  const generator = useGenerate(config, session);
  /** The mapping as the selects show it, and the one the last import was given. */
  const [draft, setDraft] = useState<HeaderMapping>({});
  const [given, setGiven] = useState<HeaderMapping | null>(null);
  const [mappingSaved, setMappingSaved] = useState(false);
  const [fixes, setFixes] = useState<Fix[] | null>(null);
  const [target, setTarget] = useState<GridTarget | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const problemsHeading = useRef<HTMLHeadingElement>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const columns = useMemo(
    () => kindColumns(built?.body.type === 'jdr' ? 'jdr' : kind.type),
    [built, kind.type],
  );
  const byCell = useMemo(() => problemsByCell(built?.problems ?? []), [built?.problems]);
  const working = busy !== null || generator.generation.state === 'sending';
  /** Data edited or fixed in the page: thrown away by another kind, another file or Import again. */
  const edited = built !== null && built.body !== built.result.body;
  const generatedNow = generator.generation.state === 'done' || generator.generation.state === 'pending';
  /** Asks before throwing edited data away (nothing to ask when it was not edited). */
  const mayDiscard = () => !edited || window.confirm(t.discardEdits);

  useEffect(() => {
    // Leaving the page loses edits no file was generated from: the browser asks first.
    if (!edited || generatedNow) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [edited, generatedNow]);

  useEffect(() => {
    // The first kind's saved mapping; a later kind's is loaded when it is chosen.
    void mappings.load(kind);
  }, []);

  /** An engine-side failure in its own words; the file's own refusal as the engine words it. */
  const failed = (error: unknown, as: (message: string) => string) =>
    engineFailure(error, ENGINE_FAILURE_TEXTS[config.lang]) ??
    (error instanceof EngineError ? refusalText(error.message, config.lang) : as(messageOf(error, t)));

  /** A check that takes too long or never answers: its worker is stopped, the next request starts a new one. */
  const onCancel = () => {
    engine().terminate();
    requestAnimationFrame(() => document.getElementById('build-file')?.focus());
  };

  const progress = (label: string) => (done: number, total: number) => setBusy({ label, done, total });

  const runImport = async (
    source: File,
    forKind: Kind,
    mapping: HeaderMapping | null,
    strictRefs = strict,
  ) => {
    setAlert(null);
    setBusy({ label: t.reading(source.name), done: 0, total: 0 });
    try {
      const form = {
        type: forKind.type,
        declarant: forKind.declarant,
        strict_references: strictRefs,
        filename: source.name,
        ...(mapping ? { mapping } : {}),
      };
      const { result, located } = await engine().importSheet(
        await source.arrayBuffer(),
        form,
        progress(t.reading(source.name)),
      );
      const index = new RowIndex(result.body);
      const places = sheetPlaces(located);
      const counts = countsOf(result.validation, result.issue_count);
      const problems = importProblems(result, index, places);
      setBuilt({ result, body: result.body, index, places, problems, counts, edited: false });
      setDraft(mappingOf(result));
      setGiven(mapping);
      setMappingSaved(false);
      setFixes(null);
      generator.reset();
      setAnnounce(t.announceRead(t.counts(counts.errors, counts.warnings)));
      requestAnimationFrame(() => problemsHeading.current?.focus());
    } catch (error) {
      setAlert(failed(error, t.readFailed));
    } finally {
      setBusy(null);
    }
  };

  const onFile = (chosen: File) => {
    if (!mayDiscard()) return;
    // Refused before a byte is read: the API's limit, said with the file's size.
    const tooLarge = fileTooLarge(chosen.size, config.lang);
    if (tooLarge) return setAlert(tooLarge);
    setFile(chosen);
    void runImport(chosen, kind, mappings.saved);
  };

  /** Another kind: its saved mapping, then the file read again as that kind. */
  const onKind = (next: Kind) => {
    // Kept: the choices shown again as they were.
    if (!mayDiscard()) return setKind({ ...kind });
    setKind(next);
    setBuilt(null);
    setFixes(null);
    generator.reset();
    void mappings.load(next).then((mapping) => {
      if (file && mappings.isCurrent(next)) void runImport(file, next, mapping);
    });
  };

  /** The body's validation replaces the problems (the reading's issues were about the sheet as read). */
  const check = async (
    body: DeclarationBody,
    current: Built,
    announceAs: (summary: string) => string,
    strictRefs = strict,
  ) => {
    setBusy({ label: t.checking, done: 0, total: 0 });
    try {
      const response = await engine().validateBody(body, strictRefs, progress(t.checking));
      const counts = countsOf(response);
      const problems = validationProblems(response, current.index, current.places);
      setBuilt({ ...current, body, problems, counts, edited: false });
      setAnnounce(announceAs(t.counts(counts.errors, counts.warnings)));
    } catch (error) {
      setAlert(failed(error, t.failed));
    } finally {
      setBusy(null);
    }
  };

  const onEdit = (row: number, column: (typeof columns)[number], text: string) => {
    // A check or a Generate under way works on the body as it was: no edit meanwhile.
    if (!built || working) return;
    setBuilt({ ...built, body: setCell(built.body, built.index.at(row), column, text), edited: true });
    generator.reset();
  };

  const onFixes = async () => {
    if (!built) return;
    setAlert(null);
    setBusy({ label: t.checking, done: 0, total: 0 });
    try {
      const { body, changes } = await engine().normalizeBody(built.body);
      // The normalizations change values, never the body's structure: the row index still holds.
      setFixes(changes.map((change) => ({ change, row: changeRow(change, built.index) })));
      generator.reset();
      await check(body, built, () => t.fixesDone(changes.length));
    } catch (error) {
      setAlert(failed(error, t.failed));
      setBusy(null);
    }
  };

  /** Generate, or Retry after the session ended; a failure is said in the Generate panel, focused. */
  const onGenerate = async (retry = false) => {
    if (!built || working) return;
    setAlert(null);
    try {
      const generated = await (retry
        ? generator.retry()
        : generator.generate(built.body, built.index.rowCount, strict));
      setAnnounce(
        generated.status === 'processing'
          ? t.stillProcessing
          : t.generated(generated.filename ?? generated.file_id, generated.rows ?? built.index.rowCount),
      );
    } catch (error) {
      if (error instanceof ServerError && error.code === 'VALIDATION_FAILED' && error.details) {
        // The server's own check found errors: shown as the page's problems.
        const response = error.details as DeclarationValidationResponse;
        const problems = validationProblems(response, built.index, built.places);
        setBuilt({ ...built, problems, counts: countsOf(response) });
      }
    }
    requestAnimationFrame(() => resultRef.current?.focus());
  };

  /** Strict or not: the problems again, for the data as it is now. */
  const onStrict = (next: boolean) => {
    setStrict(next);
    if (!built || !file || working) return;
    // Edited or fixed data is checked again as it is; the file as read is read again (its reading issues kept).
    if (built.body !== built.result.body) void check(built.body, built, t.announceChecked, next);
    else void runImport(file, kind, given, next);
  };

  const onSaveMapping = async () => {
    setAlert(null);
    try {
      const mapping = built ? mappingToSave(draft, built.result, given ?? {}) : draft;
      try {
        await mappings.save(kind, mapping, session.csrf());
      } catch (error) {
        // Signed in again in another tab since the page was served: its token is the new session's.
        if (!(error instanceof ServerError && error.status === 403 && error.code === 'CSRF_REJECTED'))
          throw error;
        await mappings.save(kind, mapping, await session.refresh());
      }
      setMappingSaved(true);
      setAnnounce(t.mappingSaved);
    } catch (error) {
      setAlert(t.failed(messageOf(error, t)));
    }
  };

  const blocked = !built
    ? null
    : busy
      ? t.checking
      : built.edited
        ? t.blockedEdited
        : built.counts.errors > 0
          ? t.blockedErrors
          : null;

  return (
    <div class="build-app" lang={config.lang}>
      <p class="visually-hidden" role="status" aria-live="polite" data-testid="build-announce">
        {announce}
      </p>
      {alert && (
        <div class="alert error" role="alert" data-testid="build-alert">
          {alert}
        </div>
      )}

      <section class="card" aria-labelledby="build-kind-title">
        <h2 id="build-kind-title">{t.kindTitle}</h2>
        <KindPicker t={t} kind={kind} templateUrl={config.templateUrl} disabled={working} onChange={onKind} />
        <p class="build-strict">
          <label>
            <input
              type="checkbox"
              checked={strict}
              aria-disabled={working}
              aria-describedby="build-strict-help"
              data-testid="build-strict"
              // Not toggled while a check runs (aria-disabled keeps the focus where disabled would drop it).
              onClick={(event) => working && event.preventDefault()}
              onChange={(event) => onStrict(event.currentTarget.checked)}
            />{' '}
            {t.strict}
          </label>
        </p>
        <p class="field-help" id="build-strict-help">
          {t.strictHelp}
        </p>
        {mappings.saved && (
          <p class="field-help" data-testid="build-saved-mapping">
            {t.savedMapping(Object.keys(mappings.saved).length)}
          </p>
        )}
      </section>

      <section class="card" aria-labelledby="build-file-title">
        <h2 id="build-file-title">{t.fileTitle}</h2>
        <p class="alert info build-privacy">{t.privacy}</p>
        <FileDrop
          t={t}
          disabled={working}
          fileName={file?.name ?? null}
          onFile={onFile}
          onWrongFile={() => setAlert(t.wrongFile)}
        />
        {busy && <ProgressBar busy={busy} />}
        {busy && (
          <button type="button" class="btn secondary" data-testid="build-cancel" onClick={onCancel}>
            {t.cancel}
          </button>
        )}
        {built && (
          <p data-testid="build-read-summary">
            {t.readSummary(
              built.result.rows_read,
              built.result.declarations,
              built.result.sheet,
              built.result.header_row,
            )}
          </p>
        )}
      </section>

      {built && file && (
        <section class="card" aria-labelledby="build-mapping-title">
          <h2 id="build-mapping-title">{t.mappingTitle}</h2>
          <MappingPanel
            t={t}
            lang={config.lang}
            result={built.result}
            columns={columns}
            draft={draft}
            changed={!sameMapping(draft, mappingOf(built.result))}
            busy={working}
            saved={mappingSaved}
            onChange={(header, column) => setDraft({ ...draft, [header]: column })}
            onReimport={() =>
              mayDiscard() && void runImport(file, kind, changedMapping(draft, built.result, given ?? {}))
            }
            onSave={() => void onSaveMapping()}
          />
        </section>
      )}

      {built && (
        <section class="card" aria-labelledby="build-problems-title">
          <h2 id="build-problems-title" ref={problemsHeading} tabIndex={-1}>
            {t.problemsTitle}
          </h2>
          <ProblemsPanel
            t={t}
            problems={built.problems}
            counts={built.counts}
            onGo={(p) =>
              p.row !== null &&
              setTarget({ row: p.row, column: p.column ?? columns[0]!.name, seq: (target?.seq ?? 0) + 1 })
            }
          />
        </section>
      )}

      {built && (
        <DataSection
          t={t}
          lang={config.lang}
          body={built.body}
          index={built.index}
          columns={columns}
          problems={byCell}
          places={built.places}
          target={target}
          edited={built.edited}
          busy={working}
          fixes={fixes}
          onEdit={onEdit}
          onCheck={() => void check(built.body, built, t.announceChecked)}
          onFixes={() => void onFixes()}
        />
      )}

      {built && (
        <section class="card" aria-labelledby="build-generate-title">
          <h2 id="build-generate-title">{t.generateTitle}</h2>
          <GeneratePanel
            t={t}
            blocked={blocked}
            generation={generator.generation}
            filesUrl={config.filesUrl}
            signInUrl={config.signInUrl}
            usageUrl={config.usageUrl}
            rows={built.index.rowCount}
            resultRef={resultRef}
            onGenerate={() => void onGenerate()}
            onRetry={() => void onGenerate(true)}
          />
        </section>
      )}
    </div>
  );
}
