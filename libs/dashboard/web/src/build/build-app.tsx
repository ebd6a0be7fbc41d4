/**
 * The Build page: kind → spreadsheet → mapping → problems and grid (edit, check again, safe fixes) →
 * Generate. The file is read and checked in the engine worker; nothing of it leaves the page before
 * Generate (server.ts holds the only requests, and only Generate carries data).
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { EngineClient } from '../engine/engine-client';
import type {
  BodyChange,
  DeclarationBody,
  DeclarationValidationResponse,
  ImportResult,
} from '../engine/protocol';
import { RowIndex, kindColumns, setCell } from './body-grid';
import type { BuildConfig } from './config';
import { FileDrop } from './file-drop';
import { FixesList } from './fixes-list';
import { GeneratePanel, type Generation } from './generate-panel';
import { Grid, type GridTarget } from './grid';
import { KindPicker } from './kind-picker';
import { MappingPanel } from './mapping-panel';
import { changedMapping, mappingOf, sameMapping } from './mapping';
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
import {
  ServerError,
  generateFile,
  loadMapping,
  saveMapping,
  type Fetch,
  type HeaderMapping,
  type Kind,
} from './server';
import { textsFor } from './texts';

/** What the page holds of the file once read: never sent anywhere but to Generate. */
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

/** The window's fetch, called as a function (a bare `fetch` reference loses its `this`). */
const http: Fetch = (input, init) => fetch(input, init);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function BuildApp({ config }: { config: BuildConfig }) {
  const t = textsFor(config.lang);
  const engine = useRef<EngineClient | null>(null);
  const [kind, setKind] = useState<Kind>({ type: 'adf', declarant: 'training_organization' });
  const [saved, setSaved] = useState<HeaderMapping | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<Busy | null>(null);
  const [built, setBuilt] = useState<Built | null>(null);
  const [draft, setDraft] = useState<HeaderMapping>({});
  /** The mapping the last import was given (the saved one, then the person's changes). */
  const [given, setGiven] = useState<HeaderMapping | null>(null);
  const [mappingSaved, setMappingSaved] = useState(false);
  const [fixes, setFixes] = useState<{ change: BodyChange; row: number | null }[] | null>(null);
  const [target, setTarget] = useState<GridTarget | null>(null);
  const [generation, setGeneration] = useState<Generation>({ state: 'idle' });
  const [alert, setAlert] = useState<string | null>(null);
  const [announce, setAnnounce] = useState('');
  const idempotency = useRef<{ body: DeclarationBody | null; key: string }>({ body: null, key: '' });
  const problemsHeading = useRef<HTMLHeadingElement>(null);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const columns = useMemo(
    () => kindColumns(built?.body.type === 'jdr' ? 'jdr' : kind.type),
    [built, kind.type],
  );
  const byCell = useMemo(() => problemsByCell(built?.problems ?? []), [built?.problems]);

  const client = (): EngineClient =>
    (engine.current ??= new EngineClient(config.workerUrl, {
      listsUrl: config.listsUrl,
      today: config.today,
      lang: config.lang,
    }));

  useEffect(() => {
    client();
    return () => engine.current?.terminate();
    // One worker for the page’s life.
  }, []);

  /** The organization's saved mapping of a kind (null: none, or not available), kept for the imports of that kind. */
  const kindAsked = useRef(kind);
  const loadSaved = async (forKind: Kind): Promise<HeaderMapping | null> => {
    kindAsked.current = forKind;
    setSaved(null);
    const mapping = await loadMapping(http, config.mappingsUrl, forKind).catch(() => ({}));
    const found = Object.keys(mapping).length ? mapping : null;
    // An answer for a kind chosen before the current one is dropped.
    if (kindAsked.current === forKind) setSaved(found);
    return found;
  };

  useEffect(() => {
    void loadSaved(kind);
    // The first kind's; a later kind's is loaded when it is chosen.
  }, []);

  const progress = (label: string) => (done: number, total: number) => setBusy({ label, done, total });

  const runImport = async (source: File, forKind: Kind, mapping: HeaderMapping | null) => {
    setAlert(null);
    setBusy({ label: t.reading(source.name), done: 0, total: 0 });
    try {
      const bytes = await source.arrayBuffer();
      const form = {
        type: forKind.type,
        declarant: forKind.declarant,
        strict_references: true,
        filename: source.name,
        ...(mapping ? { mapping } : {}),
      };
      const result = await client().importSheet(bytes, form, progress(t.reading(source.name)));
      const index = new RowIndex(result.body);
      const places = sheetPlaces(result, index);
      const counts = countsOf(result.validation, result.issue_count);
      setBuilt({
        result,
        body: result.body,
        index,
        places,
        problems: importProblems(result, index, places),
        counts,
        edited: false,
      });
      setDraft(mappingOf(result));
      setGiven(mapping);
      setMappingSaved(false);
      setFixes(null);
      setGeneration({ state: 'idle' });
      setAnnounce(t.announceRead(t.counts(counts.errors, counts.warnings)));
      requestAnimationFrame(() => problemsHeading.current?.focus());
    } catch (error) {
      setAlert(t.readFailed(messageOf(error)));
    } finally {
      setBusy(null);
    }
  };

  const onFile = (chosen: File) => {
    setFile(chosen);
    void runImport(chosen, kind, saved);
  };

  /** Another kind: its saved mapping, then the file read again as that kind. */
  const onKind = (next: Kind) => {
    setKind(next);
    setBuilt(null);
    setFixes(null);
    setGeneration({ state: 'idle' });
    void loadSaved(next).then((mapping) => {
      if (file && kindAsked.current === next) void runImport(file, next, mapping);
    });
  };

  /** The body's validation replaces the problems (the reading's issues were about the sheet as read). */
  const check = async (body: DeclarationBody, current: Built, announceAs: (s: string) => string) => {
    setBusy({ label: t.checking, done: 0, total: 0 });
    try {
      const response = await client().validateBody(body, true, progress(t.checking));
      const counts = countsOf(response);
      setBuilt({
        ...current,
        body,
        problems: validationProblems(response, current.index, current.places),
        counts,
        edited: false,
      });
      setAnnounce(announceAs(t.counts(counts.errors, counts.warnings)));
    } catch (error) {
      setAlert(t.failed(messageOf(error)));
    } finally {
      setBusy(null);
    }
  };

  const onEdit = (row: number, column: (typeof columns)[number], text: string) => {
    if (!built) return;
    setBuilt({ ...built, body: setCell(built.body, built.index.at(row), column, text), edited: true });
    setGeneration({ state: 'idle' });
  };

  const onFixes = async () => {
    if (!built) return;
    setAlert(null);
    setBusy({ label: t.checking, done: 0, total: 0 });
    try {
      const { body, changes } = await client().normalizeBody(built.body);
      // The body's structure is unchanged by the normalizations: the row index still holds.
      setFixes(changes.map((change) => ({ change, row: changeRow(change, built.index) })));
      setGeneration({ state: 'idle' });
      await check(body, built, () => t.fixesDone(changes.length));
    } catch (error) {
      setAlert(t.failed(messageOf(error)));
      setBusy(null);
    }
  };

  const keyFor = (body: DeclarationBody): string => {
    if (idempotency.current.body !== body) idempotency.current = { body, key: crypto.randomUUID() };
    return idempotency.current.key;
  };

  const onGenerate = async () => {
    if (!built || generation.state === 'sending') return;
    setAlert(null);
    setGeneration({ state: 'sending' });
    try {
      const generated = await generateFile(built.body, built.index.rowCount, keyFor(built.body), {
        fetch: http,
        generateUrl: config.generateUrl,
        csrf: config.csrf,
        asyncAboveRows: config.asyncAboveRows,
      });
      setGeneration({ state: 'done', file: generated });
      setAnnounce(
        t.generated(generated.filename ?? generated.file_id, generated.rows ?? built.index.rowCount),
      );
      requestAnimationFrame(() => resultRef.current?.focus());
    } catch (error) {
      setGeneration({ state: 'failed', message: messageOf(error) });
      if (error instanceof ServerError && error.code === 'VALIDATION_FAILED' && error.details) {
        const response = error.details as DeclarationValidationResponse;
        setBuilt({
          ...built,
          problems: validationProblems(response, built.index, built.places),
          counts: countsOf(response),
        });
        setAlert(t.serverErrors);
      } else {
        setAlert(t.failed(messageOf(error)));
      }
    }
  };

  const onSaveMapping = async () => {
    setAlert(null);
    try {
      await saveMapping(http, config.mappingsUrl, config.csrf, kind, draft);
      setSaved(draft);
      setMappingSaved(true);
      setAnnounce(t.mappingSaved);
    } catch (error) {
      setAlert(t.failed(messageOf(error)));
    }
  };

  const blocked = !built
    ? null
    : built.edited
      ? t.blockedEdited
      : built.counts.errors > 0
        ? t.blockedErrors
        : null;
  const working = busy !== null;

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
        {saved && <p class="field-help">{t.savedMapping(Object.keys(saved).length)}</p>}
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
            onReimport={() => void runImport(file, kind, changedMapping(draft, built.result, given ?? {}))}
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
        <section class="card" aria-labelledby="build-grid-title">
          <h2 id="build-grid-title">{t.gridTitle}</h2>
          <p class="muted small" id="build-grid-help">
            {t.gridHelp}
          </p>
          <p class="muted small">{t.gridCaption(built.index.rowCount)}</p>
          <Grid
            t={t}
            lang={config.lang}
            body={built.body}
            index={built.index}
            columns={columns}
            problems={byCell}
            places={built.places}
            target={target}
            onEdit={onEdit}
          />
          {built.edited && (
            <p class="alert warn build-edited" data-testid="build-edited">
              {t.edited}
            </p>
          )}
          <div class="build-actions">
            <button
              type="button"
              class={built.edited ? 'btn' : 'btn secondary'}
              disabled={working}
              onClick={() => void check(built.body, built, t.announceChecked)}
              data-testid="build-check-again"
            >
              {t.checkAgain}
            </button>
            <button
              type="button"
              class="btn secondary"
              disabled={working}
              aria-describedby="build-fixes-help"
              onClick={() => void onFixes()}
              data-testid="build-apply-fixes"
            >
              {t.applyFixes}
            </button>
          </div>
          <p class="field-help" id="build-fixes-help">
            {t.fixesHelp}
          </p>
          {fixes && <FixesList t={t} changes={fixes} />}
        </section>
      )}

      {built && (
        <section class="card" aria-labelledby="build-generate-title">
          <h2 id="build-generate-title">{t.generateTitle}</h2>
          <GeneratePanel
            t={t}
            blocked={working ? t.checking : blocked}
            generation={generation}
            filesUrl={config.filesUrl}
            rows={built.index.rowCount}
            resultRef={resultRef}
            onGenerate={() => void onGenerate()}
          />
        </section>
      )}
    </div>
  );
}
