/**
 * Try it in the browser (issue 36): the file chosen or dropped is read with the File API and checked
 * by the engine worker, exactly as POST /v1/files/validate would check it with a live key; the
 * result is shown in `#try-app`. Nothing of the file is sent anywhere: the worker's only request is
 * the reference lists' GET, and this script makes none.
 */
import { render } from 'preact';
import type { FileValidationResponse } from '@ppfile/rules';
import type { TryPageConfig } from '../../../src/views/try-page';
import { EngineClient, EngineError } from '../engine/engine-client';
import { ENGINE_FAILURE_TEXTS, engineFailure, refusalText } from '../engine/engine-errors';
import { fileTooLarge } from '../engine/file-size';
import { ResultCard, type Formats } from './results';
import { textsIn, type Texts } from './texts';

type State =
  | { kind: 'idle' }
  | { kind: 'checking'; done: number; total: number }
  | { kind: 'refused'; message: string }
  | { kind: 'result'; filename: string; result: FileValidationResponse };

/** The bar moves outside the live region: only the start is announced (the result or refusal says the end). */
function Progress({
  t,
  done,
  total,
  onCancel,
}: {
  t: Texts;
  done: number;
  total: number;
  onCancel: () => void;
}) {
  const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
  return (
    <div class="card try-progress" id="progress">
      <p class="visually-hidden" role="status" aria-live="polite">
        {t.checking}
      </p>
      <label for="try-progress-bar">
        {t.progress} — {percent} %
      </label>
      <progress id="try-progress-bar" max={100} value={percent}>
        {percent} %
      </progress>
      <button type="button" class="btn secondary" data-testid="try-cancel" onClick={onCancel}>
        {t.cancel}
      </button>
    </div>
  );
}

function View({ t, f, state, onCancel }: { t: Texts; f: Formats; state: State; onCancel: () => void }) {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'checking':
      return <Progress t={t} done={state.done} total={state.total} onCancel={onCancel} />;
    case 'refused':
      return (
        <div class="alert error" role="alert">
          <p>{state.message}</p>
        </div>
      );
    case 'result':
      return <ResultCard t={t} f={f} filename={state.filename} result={state.result} />;
  }
}

/** The name of a file as shown: its last path segment, printable characters, at most 120. */
function displayName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  return last.replace(/[\p{Cc}\u2028\u2029]/gu, '').slice(0, 120) || 'upload.csv';
}

/** A refusal in the API's words: each field's problem when it names some, else its message. */
function refusalOf(e: EngineError): string {
  const fields = (e.details as { fields?: { field: string; message: string }[] } | undefined)?.fields ?? [];
  return fields.length ? fields.map((x) => `${x.field}: ${x.message}`).join('; ') : e.message;
}

/** The refusal in the page's typography (the French apostrophe). */
function refusalIn(e: EngineError, lang: 'en' | 'fr'): string {
  return refusalText(refusalOf(e), lang);
}

function start(mount: HTMLElement): void {
  const config = JSON.parse(mount.dataset.config ?? '{}') as TryPageConfig;
  const t = textsIn(config.lang);
  const numbers = new Intl.NumberFormat(config.lang === 'fr' ? 'fr-FR' : 'en-GB');
  const f: Formats = { number: (n) => numbers.format(n) };
  const form = document.getElementById('try-form') as HTMLFormElement;
  const input = document.getElementById('file') as HTMLInputElement;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const show = (state: State) => render(<View t={t} f={f} state={state} onCancel={cancel} />, mount);
  // Started with the page: the lists load while the person chooses a file.
  const engine = new EngineClient(config.workerUrl, {
    listsUrl: config.listsUrl,
    today: config.today,
    lang: config.lang,
  });

  /** A check that never answers: its worker is stopped (the refusal says so), the next check starts a new one. */
  function cancel(): void {
    engine.terminate();
    setTimeout(() => submit.focus(), 0);
  }

  // While a check runs the button says it is unavailable (aria-disabled) but keeps the focus: a
  // disabled button would drop it to the page's body.
  let checking = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (checking) return;
    const file = input.files?.[0];
    if (!file) return show({ kind: 'refused', message: t.noFile });
    // Refused before a byte is read (the API's limit); an empty file is the engine's EMPTY_FILE, as the API answers.
    const tooLarge = fileTooLarge(file.size, config.lang);
    if (tooLarge) return show({ kind: 'refused', message: tooLarge });
    const filename = displayName(file.name);
    const value = (id: string) => (document.getElementById(id) as HTMLSelectElement).value;
    const strict = (document.getElementById('strict') as HTMLInputElement).checked;
    checking = true;
    submit.setAttribute('aria-disabled', 'true');
    show({ kind: 'checking', done: 0, total: file.size });
    file
      .arrayBuffer()
      .then((bytes) =>
        engine.validateCsv(
          bytes,
          { type: value('type'), declarant: value('declarant'), strict_references: strict, filename },
          (done, total) => show({ kind: 'checking', done, total }),
        ),
      )
      .then(
        (result) => {
          show({ kind: 'result', filename, result });
          mount.querySelector<HTMLElement>('#result h2')?.focus();
        },
        (e: unknown) =>
          show({
            kind: 'refused',
            message:
              engineFailure(e, ENGINE_FAILURE_TEXTS[config.lang]) ??
              (e instanceof EngineError
                ? refusalIn(e, config.lang)
                : t.failed(e instanceof Error ? e.message : String(e))),
          }),
      )
      .finally(() => {
        checking = false;
        submit.removeAttribute('aria-disabled');
      });
  });
}

const mount = document.getElementById('try-app');
if (mount?.dataset.config) start(mount);
