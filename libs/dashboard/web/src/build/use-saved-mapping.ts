/**
 * The organization's saved mapping of the chosen kind (header texts → column names): loaded when a
 * kind is chosen, given to the imports of that kind, replaced when the person saves one.
 */
import { useRef, useState } from 'preact/hooks';
import type { BuildConfig } from './config';
import { http } from './http';
import { loadMapping, saveMapping, type HeaderMapping, type Kind } from './server';

export interface SavedMapping {
  /** The chosen kind's saved mapping, or null (none, or not loaded). */
  saved: HeaderMapping | null;
  /** Loads a kind's mapping (null when it has none or cannot be loaded) and makes it the current one. */
  load: (kind: Kind) => Promise<HeaderMapping | null>;
  /** Whether `kind` is still the last one loaded (a later choice makes an earlier answer stale). */
  isCurrent: (kind: Kind) => boolean;
  /** Saves with the session's CSRF token `csrf` (the page's own, or the one read again after a new sign-in). */
  save: (kind: Kind, mapping: HeaderMapping, csrf: string) => Promise<void>;
}

export function useSavedMapping(config: BuildConfig): SavedMapping {
  const [saved, setSaved] = useState<HeaderMapping | null>(null);
  const asked = useRef<Kind | null>(null);
  const isCurrent = (kind: Kind) => asked.current === kind;
  return {
    saved,
    isCurrent,
    load: async (kind) => {
      asked.current = kind;
      setSaved(null);
      const mapping = await loadMapping(http, config.mappingsUrl, kind).catch(() => ({}));
      const found = Object.keys(mapping).length ? mapping : null;
      if (isCurrent(kind)) setSaved(found);
      return found;
    },
    save: async (kind, mapping, csrf) => {
      await saveMapping(http, config.mappingsUrl, csrf, kind, mapping);
      if (isCurrent(kind)) setSaved(mapping);
    },
  };
}
