/** Generate: enabled when the checked body has no error; then the file's result, download and Files links. */
import type { Ref } from 'preact';
import type { GeneratedFile } from './server';
import type { Texts } from './texts';

export type Generation =
  | { state: 'idle' }
  | { state: 'sending' }
  | { state: 'done'; file: GeneratedFile }
  | { state: 'failed'; message: string };

interface GenerateProps {
  t: Texts;
  blocked: string | null;
  generation: Generation;
  filesUrl: string;
  rows: number;
  resultRef: Ref<HTMLParagraphElement>;
  onGenerate: () => void;
}

export function GeneratePanel({
  t,
  blocked,
  generation,
  filesUrl,
  rows,
  resultRef,
  onGenerate,
}: GenerateProps) {
  const sending = generation.state === 'sending';
  return (
    <div data-testid="build-generate-panel">
      <p class="muted">{t.generateHelp}</p>
      {blocked && (
        <p class="alert warn" id="build-generate-blocked">
          {blocked}
        </p>
      )}
      <button
        type="button"
        class="btn"
        disabled={blocked !== null || sending}
        aria-describedby={blocked ? 'build-generate-blocked' : undefined}
        onClick={onGenerate}
        data-testid="build-generate"
      >
        {sending ? t.generating : t.generate}
      </button>
      {sending && <p class="muted">{t.processing}</p>}
      {generation.state === 'done' && (
        <div class="alert ok" data-testid="build-generated">
          <p ref={resultRef} tabIndex={-1}>
            {t.generated(generation.file.filename ?? generation.file.file_id, generation.file.rows ?? rows)}
          </p>
          <p>
            {generation.file.download_url && (
              <a class="btn" href={generation.file.download_url} data-testid="build-download">
                {t.download}
              </a>
            )}{' '}
            <a href={filesUrl} data-testid="build-files-link">
              {t.seeFiles}
            </a>
          </p>
        </div>
      )}
    </div>
  );
}
