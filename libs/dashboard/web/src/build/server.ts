/**
 * The page's requests to the dashboard (build-design.md): the saved mapping of a kind (header texts
 * and column names only) and Generate — the one request that carries the file's data, sent only when
 * the person presses Generate. No DOM: `fetch` is passed in, so the requests are tested on their own.
 */
import type { DeclarationBody } from '../engine/protocol';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
export type HeaderMapping = Record<string, string | null>;

export interface Kind {
  type: 'adf' | 'jdr';
  declarant: 'employer' | 'training_organization';
}

/** An answer the dashboard refused, with the API's error code and message. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Seconds to wait before trying again (Retry-After of a 429 or 503), when the answer said. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

/** Seconds of a Retry-After header (seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The HTTP status of the error codes a failed file can end with (API.md §6), so the page says the
 * next step of the real cause, not of a generic 500.
 */
const FAILED_FILE_STATUS: Record<string, number> = {
  VALIDATION_FAILED: 422,
  LINE_LIMIT_EXCEEDED: 413,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  QUOTA_EXCEEDED: 429,
  RATE_LIMIT_EXCEEDED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

export function kindQuery(kind: Kind): string {
  return new URLSearchParams({ type: kind.type, declarant: kind.declarant }).toString();
}

async function refused(res: Response): Promise<ServerError> {
  let body: { error?: { code?: string; message?: string; details?: unknown } } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // Not the API's JSON (a proxy's page): the status says enough.
  }
  // An empty message (no JSON, an empty statusText over HTTP/2) is worded by the page from the status.
  return new ServerError(
    res.status,
    body.error?.code ?? `HTTP_${res.status}`,
    body.error?.message || res.statusText || '',
    body.error?.details,
    retryAfterSeconds(res.headers.get('Retry-After')),
  );
}

export async function loadMapping(fetcher: Fetch, url: string, kind: Kind): Promise<HeaderMapping> {
  const res = await fetcher(`${url}?${kindQuery(kind)}`, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
  });
  if (!res.ok) throw await refused(res);
  const body = (await res.json()) as { mapping?: HeaderMapping };
  return body.mapping ?? {};
}

export async function saveMapping(
  fetcher: Fetch,
  url: string,
  csrf: string,
  kind: Kind,
  mapping: HeaderMapping,
): Promise<void> {
  const res = await fetcher(`${url}?${kindQuery(kind)}`, {
    method: 'PUT',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify({ mapping }),
  });
  if (!res.ok) throw await refused(res);
}

/** The session as it is now (GET /dashboard/build/session): its CSRF token. Refused 401 when signed out. */
export async function readSession(fetcher: Fetch, url: string): Promise<string> {
  const res = await fetcher(url, {
    headers: { Accept: 'application/json' },
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!res.ok) throw await refused(res);
  return ((await res.json()) as { csrf: string }).csrf;
}

/** What Generate gives: the file's metadata as the API answers it, with its dashboard download URL. */
export interface GeneratedFile {
  file_id: string;
  status: string;
  filename?: string;
  rows?: number;
  declarations?: number;
  download_url?: string;
  [key: string]: unknown;
}

export interface GenerateSettings {
  fetch: Fetch;
  generateUrl: string;
  csrf: string;
  /** Bodies with more rows go the asynchronous way (Prefer: respond-async) and are polled. */
  asyncAboveRows: number;
  /** Waits between polls (tests pass a quick one). */
  wait?: (ms: number) => Promise<void>;
  /** The clock of the polling's overall limit (tests pass their own). */
  now?: () => number;
  /** How long a queued file is polled before the page stops waiting (it will appear under Files). */
  pollLimitMs?: number;
}

const POLL_MS = [500, 1000, 1000, 2000, 2000, 3000];
/** Two minutes of polling; past that the file is said to be still in the making, under Files. */
export const POLL_LIMIT_MS = 120_000;
/** Waits after a poll that failed on the network or a passing 502/503/504: longer each time. */
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/** A poll's answer, or null when it failed in a way worth retrying (no network, a passing 5xx). */
async function poll(settings: GenerateSettings, fileId: string): Promise<Partial<GeneratedFile> | null> {
  let res: Response;
  try {
    res = await settings.fetch(fileStatusUrl(settings.generateUrl, fileId), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    return null;
  }
  if (res.status === 502 || res.status === 503 || res.status === 504) return null;
  if (!res.ok) throw await refused(res);
  return (await res.json()) as Partial<GeneratedFile>;
}

/** GET /dashboard/build/files/:id, beside the generate URL (build-design.md). */
export function fileStatusUrl(generateUrl: string, fileId: string): string {
  return generateUrl.replace(/\/generate$/, `/files/${encodeURIComponent(fileId)}`);
}

/**
 * POST the body to Generate — as POST /v1/files/generate takes it (the declaration body; the API's
 * default options, but for strict references when the page unchecked them: the file is checked as
 * the page checked it) — with the Idempotency-Key of this content (idempotency.ts: a second press
 * sends the same key: one file), then poll a file accepted asynchronously until it is ready or failed —
 * for two minutes at most: it then resolves with the file still `processing` (it will appear under
 * Files). A poll lost on the network is tried again, waiting longer each time.
 */
export async function generateFile(
  body: DeclarationBody,
  rows: number,
  idempotencyKey: string,
  settings: GenerateSettings,
  strictReferences = true,
): Promise<GeneratedFile> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-CSRF-Token': settings.csrf,
    'Idempotency-Key': idempotencyKey,
  };
  if (rows > settings.asyncAboveRows) headers.Prefer = 'respond-async';
  const res = await settings.fetch(settings.generateUrl, {
    method: 'POST',
    credentials: 'same-origin',
    headers,
    body: JSON.stringify(strictReferences ? body : { ...body, options: { strict_references: false } }),
  });
  if (!res.ok) throw await refused(res);
  let file = (await res.json()) as GeneratedFile;
  const wait = settings.wait ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = settings.now ?? Date.now;
  const until = now() + (settings.pollLimitMs ?? POLL_LIMIT_MS);
  let polls = 0;
  let lost = 0;
  while (file.status === 'processing' && now() < until) {
    await wait(
      lost > 0
        ? RETRY_MS[Math.min(lost - 1, RETRY_MS.length - 1)]!
        : POLL_MS[Math.min(polls, POLL_MS.length - 1)]!,
    );
    const answer = await poll(settings, file.file_id);
    if (answer === null) {
      lost++;
      continue;
    }
    lost = 0;
    polls++;
    file = { ...file, ...answer };
  }
  if (file.status === 'failed') {
    // The error body the request would have had: its code, message and details, at its own status.
    const error = (file.error ?? {}) as { error?: { code?: string; message?: string; details?: unknown } };
    const code = error.error?.code ?? 'GENERATION_FAILED';
    throw new ServerError(
      FAILED_FILE_STATUS[code] ?? 500,
      code,
      error.error?.message ?? '',
      error.error?.details,
    );
  }
  return file;
}

/** A refused Generate: the answer's status (0: no answer), its code and message, and for a 429 when to try again. */
export interface Failure {
  status: number;
  code: string;
  message: string;
  /** Epoch ms before which Generate stays disabled (a rate limit's Retry-After). */
  retryAt?: number;
}

/** Seconds a 429 of the rate limit asks to wait, when the answer does not say. */
const DEFAULT_WAIT_SECONDS = 60;

export function failureOf(error: unknown, now = Date.now()): Failure {
  if (!(error instanceof ServerError))
    // No answer at all (the network): status 0.
    return { status: 0, code: 'NETWORK', message: error instanceof Error ? error.message : String(error) };
  const failure: Failure = { status: error.status, code: error.code, message: error.message };
  if (error.status === 429 && error.code !== 'QUOTA_EXCEEDED')
    failure.retryAt = now + (error.retryAfter ?? DEFAULT_WAIT_SECONDS) * 1000;
  return failure;
}
