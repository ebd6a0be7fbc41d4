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
import { ResultCard, type Formats } from './results';
import { textsIn, type Texts } from './texts';

type State =
  | { kind: 'idle' }
  | { kind: 'checking'; done: number; total: number }
  | { kind: 'refused'; message: string }
  | { kind: 'result'; filename: string; result: FileValidationResponse };

function Progress({ t, done, total }: { t: Texts; done: number; total: number }) {
  const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
  return (
    <div class="card try-progress" id="progress" role="status" aria-live="polite">
      <label for="try-progress-bar">
        {t.progress} — {percent} %
      </label>
      <progress id="try-progress-bar" max={100} value={percent}>
        {percent} %
      </progress>
    </div>
  );
}

function View({ t, f, state }: { t: Texts; f: Formats; state: State }) {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'checking':
      return <Progress t={t} done={state.done} total={state.total} />;
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

function start(mount: HTMLElement): void {
  const config = JSON.parse(mount.dataset.config ?? '{}') as TryPageConfig;
  const t = textsIn(config.lang);
  const numbers = new Intl.NumberFormat(config.lang === 'fr' ? 'fr-FR' : 'en-GB');
  const f: Formats = { number: (n) => numbers.format(n) };
  const form = document.getElementById('try-form') as HTMLFormElement;
  const input = document.getElementById('file') as HTMLInputElement;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const show = (state: State) => render(<View t={t} f={f} state={state} />, mount);
  // Started with the page: the lists load while the person chooses a file.
  const engine = new EngineClient(config.workerUrl, {
    listsUrl: config.listsUrl,
    today: config.today,
    lang: config.lang,
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const file = input.files?.[0];
    if (!file || file.size === 0) return show({ kind: 'refused', message: t.noFile });
    const filename = displayName(file.name);
    const value = (id: string) => (document.getElementById(id) as HTMLSelectElement).value;
    const strict = (document.getElementById('strict') as HTMLInputElement).checked;
    submit.disabled = true;
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
              e instanceof EngineError ? refusalOf(e) : t.failed(e instanceof Error ? e.message : String(e)),
          }),
      )
      .finally(() => {
        submit.disabled = false;
      });
  });
}

const mount = document.getElementById('try-app');
if (mount?.dataset.config) start(mount);
