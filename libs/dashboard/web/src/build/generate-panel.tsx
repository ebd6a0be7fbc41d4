/**
 * Generate: enabled when the checked body has no error; then the file's result, download and Files
 * links — or, in the panel itself, why it failed and what to do next (focused and announced).
 */
import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Failure, GeneratedFile } from './server';
import type { Texts } from './texts';

export type Generation =
  | { state: 'idle' }
  | { state: 'sending' }
  | { state: 'done'; file: GeneratedFile }
  /** Still being made when the page stopped waiting: it will appear under Files. */
  | { state: 'pending'; file: GeneratedFile }
  | { state: 'failed'; failure: Failure };

export const sessionEnded = (f: Failure): boolean =>
  f.status === 401 || (f.status === 403 && f.code === 'CSRF_REJECTED');

/** The next step of a failure, by its status and code. */
function nextStep(t: Texts, f: Failure, seconds: number): string {
  if (f.code === 'VALIDATION_FAILED') return t.serverErrors;
  if (f.code === 'QUOTA_EXCEEDED') return t.quotaExceeded;
  if (f.status === 429) return seconds > 0 ? t.rateLimited(seconds) : t.rateLimitOver;
  if (f.status === 413 || f.code === 'LINE_LIMIT_EXCEEDED') return t.tooLarge;
  if (f.status === 0) return t.networkLost;
  if (f.status >= 500) return t.serverDown;
  return t.failed(f.message || t.httpStatus(f.status));
}

interface GenerateProps {
  t: Texts;
  blocked: string | null;
  generation: Generation;
  filesUrl: string;
  signInUrl: string;
  usageUrl: string;
  rows: number;
  resultRef: Ref<HTMLParagraphElement>;
  onGenerate: () => void;
  onRetry: () => void;
}

export function GeneratePanel({
  t,
  blocked,
  generation,
  filesUrl,
  signInUrl,
  usageUrl,
  rows,
  resultRef,
  onGenerate,
  onRetry,
}: GenerateProps) {
  const sending = generation.state === 'sending';
  const failure = generation.state === 'failed' ? generation.failure : null;
  // A rate limit's wait, counted down: Generate stays disabled until it is over.
  // (a tick re-renders each second; the wait is read from the clock at each render)
  const [, setTick] = useState(0);
  const retryAt = failure?.retryAt ?? 0;
  useEffect(() => {
    if (retryAt <= Date.now()) return undefined;
    const timer = setInterval(() => {
      setTick((n) => n + 1);
      if (Date.now() >= retryAt) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
  const ended = failure !== null && sessionEnded(failure);
  // The server's own words, beside the next step, when they add something.
  const detail =
    failure && failure.message && !ended && failure.status !== 0 && failure.code !== 'VALIDATION_FAILED'
      ? failure.message
      : null;
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
        disabled={blocked !== null || sending || seconds > 0 || ended}
        aria-describedby={blocked ? 'build-generate-blocked' : undefined}
        onClick={onGenerate}
        data-testid="build-generate"
      >
        {sending ? t.generating : t.generate}
      </button>
      {sending && <p class="muted">{t.processing}</p>}
      {failure && (
        <div class="alert error" role="alert" data-testid="build-generate-failed">
          <p ref={resultRef} tabIndex={-1}>
            {ended ? t.sessionEnded : nextStep(t, failure, seconds)}
          </p>
          {detail && detail !== nextStep(t, failure, seconds) && <p>{detail}</p>}
          {ended && (
            <p>
              <a href={signInUrl} target="_blank" rel="noopener" data-testid="build-sign-in">
                {t.signInNewTab}
              </a>{' '}
              <button type="button" class="btn" onClick={onRetry} data-testid="build-retry">
                {t.retry}
              </button>
            </p>
          )}
          {failure.code === 'QUOTA_EXCEEDED' && (
            <p>
              <a href={usageUrl}>{t.seeUsage}</a>
            </p>
          )}
        </div>
      )}
      {generation.state === 'pending' && (
        <div class="alert info" role="status" data-testid="build-generate-pending">
          <p ref={resultRef} tabIndex={-1}>
            {t.stillProcessing}
          </p>
          <p>
            <a href={filesUrl}>{t.seeFiles}</a>
          </p>
        </div>
      )}
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
