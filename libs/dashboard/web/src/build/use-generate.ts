/**
 * Generate: the one request that carries the file's data. Its Idempotency-Key is made from the content
 * sent (idempotency.ts): pressing twice, again after an error, or after a reload of the same file
 * makes one file; an edited or fixed body is another content, with another key. A refusal becomes
 * the panel's `failed` state (its status, code and wait); Retry after the session ended reads the
 * session's token again and sends the same body with the same key.
 */
import { useRef, useState } from 'preact/hooks';
import type { DeclarationBody } from '../engine/protocol';
import type { BuildConfig } from './config';
import type { Generation } from './generate-panel';
import { http } from './http';
import { generateKey } from './idempotency';
import { failureOf, generateFile, type GeneratedFile } from './server';
import type { DashboardSession } from './use-session';

export interface Generator {
  generation: Generation;
  /**
   * Sends the body (rows: its holders, for the asynchronous threshold; strict: strict_references);
   * rejects as generateFile does.
   */
  generate: (body: DeclarationBody, rows: number, strict: boolean) => Promise<GeneratedFile>;
  /** The last body sent again, the session's token read first (after a sign-in in another tab). */
  retry: () => Promise<GeneratedFile>;
  reset: () => void;
}

export function useGenerate(config: BuildConfig, session: DashboardSession): Generator {
  const [generation, setGeneration] = useState<Generation>({ state: 'idle' });
  const key = useRef<{ body: DeclarationBody | null; strict: boolean; key: string }>({
    body: null,
    strict: true,
    key: '',
  });
  const last = useRef<{ body: DeclarationBody; rows: number; strict: boolean } | null>(null);
  // The key of the content (hashed once per body object and setting).
  const keyFor = (body: DeclarationBody, strict: boolean): string => {
    if (key.current.body !== body || key.current.strict !== strict)
      key.current = { body, strict, key: generateKey(body, strict) };
    return key.current.key;
  };
  const generate = async (body: DeclarationBody, rows: number, strict: boolean, refresh = false) => {
    last.current = { body, rows, strict };
    setGeneration({ state: 'sending' });
    try {
      if (refresh) await session.refresh();
      const file = await generateFile(
        body,
        rows,
        keyFor(body, strict),
        {
          fetch: http,
          generateUrl: config.generateUrl,
          csrf: session.csrf(),
          asyncAboveRows: config.asyncAboveRows,
        },
        strict,
      );
      // Still being made after the polling's limit: it will appear under Files.
      setGeneration(file.status === 'processing' ? { state: 'pending', file } : { state: 'done', file });
      return file;
    } catch (error) {
      setGeneration({ state: 'failed', failure: failureOf(error) });
      throw error;
    }
  };
  return {
    generation,
    reset: () => setGeneration({ state: 'idle' }),
    generate: (body, rows, strict) => generate(body, rows, strict),
    retry: () => {
      const sent = last.current;
      if (!sent) return Promise.reject(new Error('nothing to retry'));
      return generate(sent.body, sent.rows, sent.strict, true);
    },
  };
}
