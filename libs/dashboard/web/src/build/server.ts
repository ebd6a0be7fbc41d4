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
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

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
  return new ServerError(
    res.status,
    body.error?.code ?? `HTTP_${res.status}`,
    body.error?.message ?? res.statusText,
    body.error?.details,
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
}

const POLL_MS = [500, 1000, 1000, 2000, 2000, 3000];

/** GET /dashboard/build/files/:id, beside the generate URL (build-design.md). */
export function fileStatusUrl(generateUrl: string, fileId: string): string {
  return generateUrl.replace(/\/generate$/, `/files/${encodeURIComponent(fileId)}`);
}

/**
 * POST the body to Generate — as POST /v1/files/generate takes it (the declaration body; the API's
 * default options, but for strict references when the page unchecked them: the file is checked as
 * the page checked it) — with the Idempotency-Key made once for this body (a second press sends
 * the same key: one file), then poll a file accepted asynchronously until it is ready or failed.
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
  for (let i = 0; file.status === 'processing'; i++) {
    await wait(POLL_MS[Math.min(i, POLL_MS.length - 1)]!);
    const poll = await settings.fetch(fileStatusUrl(settings.generateUrl, file.file_id), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!poll.ok) throw await refused(poll);
    file = { ...file, ...((await poll.json()) as Partial<GeneratedFile>) };
  }
  if (file.status === 'failed') {
    const error = (file.error ?? {}) as { error?: { code?: string; message?: string } };
    throw new ServerError(500, error.error?.code ?? 'GENERATION_FAILED', error.error?.message ?? '');
  }
  return file;
}
