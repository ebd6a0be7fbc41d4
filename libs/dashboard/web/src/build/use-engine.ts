/**
 * The engine client of the page: its worker started when the page mounts (a new one after a failure
 * or a cancel), stopped when it goes.
 */
import { useEffect, useRef } from 'preact/hooks';
import { EngineClient } from '../engine/engine-client';
import type { BuildConfig } from './config';

export function useEngine(config: BuildConfig): () => EngineClient {
  const engine = useRef<EngineClient | null>(null);
  const client = (): EngineClient =>
    (engine.current ??= new EngineClient(config.workerUrl, {
      listsUrl: config.listsUrl,
      today: config.today,
      lang: config.lang,
    }));
  useEffect(() => {
    // Started at once: the reference lists load while the person chooses a file.
    client();
    return () => engine.current?.terminate();
  }, []);
  return client;
}
