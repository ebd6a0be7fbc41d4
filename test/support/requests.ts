import type { BrowserContext, Request } from 'playwright-core';

/** A request the browser made (a page's or a worker's): its URL, method and body as sent. */
export interface Seen {
  url: string;
  method: string;
  body: Buffer | null;
}

/**
 * Records every request of the browser context from now on: its pages' and their workers' (the
 * engine worker's fetch of the reference lists is seen here too).
 */
export function recordRequests(context: BrowserContext): { seen: Seen[]; stop(): void } {
  const seen: Seen[] = [];
  const on = (r: Request) => seen.push({ url: r.url(), method: r.method(), body: r.postDataBuffer() });
  context.on('request', on);
  return { seen, stop: () => context.off('request', on) };
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * The requests that may carry one of `secrets`: a URL or a body holding it (as is, or URL-, base64- or
 * JSON-encoded), or a body the browser does not let us read (a multipart upload of a file): a body
 * that cannot be searched counts as a leak.
 */
export function leaks(requests: readonly Seen[], secrets: readonly string[]): string[] {
  const forms = (s: string) => [
    s,
    encodeURIComponent(s),
    Buffer.from(s).toString('base64'),
    JSON.stringify(s).slice(1, -1),
  ];
  const found: string[] = [];
  for (const r of requests) {
    if (r.body === null && !['GET', 'HEAD', 'OPTIONS'].includes(r.method)) {
      found.push(`${r.method} ${r.url}: a body that cannot be read`);
      continue;
    }
    const haystacks = [
      r.url,
      safeDecode(r.url),
      r.body ? r.body.toString('latin1') : '',
      r.body ? r.body.toString('utf8') : '',
    ];
    if (secrets.some((secret) => forms(secret).some((form) => haystacks.some((h) => h.includes(form)))))
      found.push(`${r.method} ${r.url} holds a value of the file`);
  }
  return found;
}
