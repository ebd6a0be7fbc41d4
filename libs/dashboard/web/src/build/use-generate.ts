/**
 * Generate: the one request that carries the file's data. Its Idempotency-Key is made from the content
 * sent (idempotency.ts): pressing twice, again after an error, or after a reload of the same file
 * makes one file; an edited or fixed body is another content, with another key.
 */
import { useRef, useState } from 'preact/hooks';
import type { DeclarationBody } from '../engine/protocol';
import type { BuildConfig } from './config';
import type { Generation } from './generate-panel';
import { http } from './http';
import { generateKey } from './idempotency';
import { generateFile, type GeneratedFile } from './server';

export interface Generator {
  generation: Generation;
  /**
   * Sends the body (rows: its holders, for the asynchronous threshold; strict: strict_references);
   * rejects as generateFile does.
   */
  generate: (body: DeclarationBody, rows: number, strict: boolean) => Promise<GeneratedFile>;
  reset: () => void;
}

export function useGenerate(config: BuildConfig): Generator {
  const [generation, setGeneration] = useState<Generation>({ state: 'idle' });
  const key = useRef<{ body: DeclarationBody | null; strict: boolean; key: string }>({
    body: null,
    strict: true,
    key: '',
  });
  // The key of the content (hashed once per body object and setting).
  const keyFor = (body: DeclarationBody, strict: boolean): string => {
    if (key.current.body !== body || key.current.strict !== strict)
      key.current = { body, strict, key: generateKey(body, strict) };
    return key.current.key;
  };
  return {
    generation,
    reset: () => setGeneration({ state: 'idle' }),
    generate: async (body, rows, strict) => {
      setGeneration({ state: 'sending' });
      try {
        const file = await generateFile(
          body,
          rows,
          keyFor(body, strict),
          {
            fetch: http,
            generateUrl: config.generateUrl,
            csrf: config.csrf,
            asyncAboveRows: config.asyncAboveRows,
          },
          strict,
        );
        setGeneration({ state: 'done', file });
        return file;
      } catch (error) {
        setGeneration({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    },
  };
}
