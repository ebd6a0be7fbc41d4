/**
 * The engine's own failures (the worker stopped, the lists not loaded, a bug) in plain words, not the
 * API's "An unexpected error occurred": the file was not at fault. `details.reason` is the library's
 * or the browser's own words (they name no value of the file, STYLE.md) and is shown as a hint.
 */
import { ENGINE_FAILED, ENGINE_STOPPED, EngineError } from './engine-client';

export interface EngineFailureTexts {
  engineFailed: string;
  engineStopped: string;
  listsFailed: string;
}

export const ENGINE_FAILURE_TEXTS: { en: EngineFailureTexts; fr: EngineFailureTexts } = {
  en: {
    engineFailed: 'The checker in this page stopped unexpectedly. Try again; it starts afresh.',
    engineStopped: 'The check was cancelled.',
    listsFailed:
      'The reference lists the check needs could not be loaded. Check your connection, then try again.',
  },
  fr: {
    engineFailed:
      'Le vérificateur de cette page s’est arrêté de façon inattendue. Réessayez\u00a0: il repart de zéro.',
    engineStopped: 'La vérification a été annulée.',
    listsFailed:
      'Les listes de référence nécessaires à la vérification n’ont pas pu être chargées. Vérifiez votre connexion, puis réessayez.',
  },
};

/** The plain words for an engine-side failure, or null when the error is the file's (its own message). */
export function engineFailure(error: unknown, t: EngineFailureTexts): string | null {
  if (!(error instanceof EngineError)) return null;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  const hint = typeof reason === 'string' && reason ? ` (${reason.slice(0, 200)})` : '';
  switch (error.code) {
    case ENGINE_STOPPED:
      return t.engineStopped;
    case 'ENGINE_LISTS_FAILED':
      return t.listsFailed + hint;
    case ENGINE_FAILED:
    case 'INTERNAL_ERROR':
      return t.engineFailed + hint;
    default:
      return null;
  }
}

/**
 * A refusal of the file in the page: the engine's message as it is (it already says "The file is
 * not…", so no "could not be read:" before it), with the typographic apostrophe of the page's French.
 */
export function refusalText(message: string, lang: 'en' | 'fr'): string {
  return lang === 'fr' ? message.replace(/'/g, '\u2019') : message;
}
