/**
 * @ppfile/client — a typed client of the HTTP API, generated from openapi.json (openapi-typescript
 * types in schema.ts, `npm run openapi`) over openapi-fetch. Every path, parameter, body and answer
 * is typed from the contract: a call that does not match it does not compile.
 *
 *   const ppfile = createPpfileClient({ baseUrl: 'https://ppfile.example.org', apiKey: 'pp_live_…' });
 *   const { data, error, response } = await ppfile.POST('/v1/files/generate', { body });
 *
 * No other library of the repository imports it, and it imports none of them: it is the API as a
 * caller sees it.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };
export type Schemas = components['schemas'];
export type PpfileClient = Client<paths>;

export interface PpfileClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the gateway answers, e.g. https://ppfile.example.org (no trailing /v1). */
  baseUrl: string;
  /** `pp_live_…` or `pp_test_…`: sent as `Authorization: Bearer` on every call. */
  apiKey?: string;
  /** `fr` for French messages (Accept-Language). */
  lang?: 'en' | 'fr';
}

export function createPpfileClient(options: PpfileClientOptions): PpfileClient {
  const { apiKey, lang, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl: withoutTrailingSlashes(options.baseUrl),
    headers: {
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      ...(lang ? { 'Accept-Language': lang } : {}),
      ...(headers as Record<string, string> | undefined),
    },
  });
}

/** `https://x.example//` → `https://x.example` (a loop: a regular expression here would be quadratic). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}
