import {
  FIELD_PROBLEMS,
  FORMAT_ERROR_CODES,
  formatErrorMessage,
  localize,
  type FormatErrorCode,
  type Lang,
  type MessageCatalogue,
  type MessageParams,
} from '@ppfile/rules';
import type { HttpErrorCode, RequestErrorCode } from './codes';

/**
 * The messages of the codes only HTTP knows, in the shape and with the parameters of the format's
 * catalogue (libs/rules): non-personal parameters only.
 */
const HTTP_ERROR_MESSAGES: MessageCatalogue<HttpErrorCode> = {
  MISSING_API_KEY: {
    en: () => 'Send your API key in the header "Authorization: Bearer <API_KEY>".',
    fr: () => "Envoyez votre clé d'API dans l'en-tête « Authorization: Bearer <API_KEY> ».",
  },
  INVALID_API_KEY: {
    en: () => 'The API key is unknown, malformed or revoked.',
    fr: () => "La clé d'API est inconnue, mal formée ou révoquée.",
  },
  NOT_FOUND: {
    en: () => 'No such resource for this API key.',
    fr: () => "Aucune ressource de ce nom pour cette clé d'API.",
  },
  FILE_NOT_STORED: {
    en: () => 'This file was generated with store: false; it has no download.',
    fr: () => "Ce fichier a été généré avec store: false ; il n'a pas de téléchargement.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    en: () => 'This Idempotency-Key was already used with a different request body.',
    fr: () => 'Cette Idempotency-Key a déjà servi avec un autre corps de requête.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    en: () => 'A request with this Idempotency-Key is still running; retry when it has finished.',
    fr: () =>
      'Une requête avec cette Idempotency-Key est encore en cours ; réessayez quand elle sera terminée.',
  },
  FILE_NOT_AVAILABLE: {
    en: (p) =>
      p.expected === 'failed'
        ? 'The file is not available: its generation failed (see GET /v1/files/{id}).'
        : 'The file is not available yet: it is still being generated. Retry after the delay given by Retry-After.',
    fr: (p) =>
      p.expected === 'failed'
        ? "Le fichier n'est pas disponible : sa génération a échoué (voir GET /v1/files/{id})."
        : "Le fichier n'est pas encore disponible : sa génération est en cours. Réessayez après le délai indiqué par Retry-After.",
  },
  FILE_EXPIRED: {
    en: (p) => `The file has expired (retention ${p.limit} h); it has been or will be deleted.`,
    fr: (p) => `Le fichier a expiré (conservation ${p.limit} h) ; il est ou sera supprimé.`,
  },
  PAYLOAD_TOO_LARGE: {
    en: (p) => `The request body or file is over ${p.limit} bytes.`,
    fr: (p) => `Le corps de la requête ou le fichier dépasse ${p.limit} octets.`,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    en: (p) =>
      p.detail === 'content-encoding'
        ? `Content-Encoding must be one of: ${p.expected}.`
        : `Content-Type must be ${p.expected}.`,
    fr: (p) =>
      p.detail === 'content-encoding'
        ? `Le Content-Encoding doit être l'un de : ${p.expected}.`
        : `Le Content-Type doit être ${p.expected}.`,
  },
  REQUEST_TIMEOUT: {
    en: (p) =>
      `The request body did not arrive in time: within ${p.limit} s, and at ${p.count} bytes a second at least after the first seconds. Nothing was counted.`,
    fr: (p) =>
      `Le corps de la requête n'est pas arrivé à temps : en ${p.limit} s au plus, et à ${p.count} octets par seconde au moins après les premières secondes. Rien n'a été compté.`,
  },
  RATE_LIMIT_EXCEEDED: {
    en: (p) => `Too many requests: at most ${p.limit} a minute; retry in ${p.count} s.`,
    fr: (p) => `Trop de requêtes : ${p.limit} par minute au plus ; réessayez dans ${p.count} s.`,
  },
  QUOTA_EXCEEDED: {
    en: (p) =>
      p.mode === 'test'
        ? `The monthly allowance of ${p.limit} rows for this organization's test keys would be exceeded (${p.count} requested); nothing was counted.`
        : `The monthly quota of ${p.limit} units would be exceeded (${p.count} requested); nothing was counted.`,
    fr: (p) =>
      p.mode === 'test'
        ? `L'allocation mensuelle de ${p.limit} lignes des clés de test de l'organisation serait dépassée (${p.count} demandées) ; rien n'a été compté.`
        : `Le quota mensuel de ${p.limit} unités serait dépassé (${p.count} demandées) ; rien n'a été compté.`,
  },
  SERVICE_UNAVAILABLE: {
    en: (p) =>
      p.detail === 'busy'
        ? 'The gateway holds as many request bodies as its memory allows; nothing was counted or kept. Retry after Retry-After seconds.'
        : 'A dependency of the service is unavailable; nothing was counted or kept. Retry later.',
    fr: (p) =>
      p.detail === 'busy'
        ? "La passerelle tient déjà autant de corps de requête que sa mémoire le permet ; rien n'a été compté ni conservé. Réessayez après Retry-After secondes."
        : "Une dépendance du service est indisponible ; rien n'a été compté ni conservé. Réessayez plus tard.",
  },
  INTERNAL_ERROR: {
    en: () => 'An unexpected error occurred; nothing was counted or kept.',
    fr: () => "Une erreur inattendue s'est produite ; rien n'a été compté ni conservé.",
  },
};

const FORMAT_CODES: ReadonlySet<string> = new Set(FORMAT_ERROR_CODES);

function isFormatErrorCode(code: RequestErrorCode): code is FormatErrorCode {
  return FORMAT_CODES.has(code);
}

/** The message of any request error: the format's codes from its catalogue, HTTP's from this one. */
export function requestErrorMessage(code: RequestErrorCode, lang: Lang, params: MessageParams): string {
  return isFormatErrorCode(code)
    ? formatErrorMessage(code, lang, params)
    : localize(HTTP_ERROR_MESSAGES[code], lang)(params);
}

/**
 * Messages for every problem listed in details.fields of INVALID_REQUEST: those the format finds in a
 * body (libs/rules FIELD_PROBLEMS) and those of headers, paths and forms that only HTTP has.
 */
export const REQUEST_FIELD_PROBLEMS = {
  ...FIELD_PROBLEMS,
  idempotency_key: { en: '1 to 255 printable ASCII characters', fr: '1 à 255 caractères ASCII imprimables' },
  /** Followed by the limit (the gateway's bound on a JSON body's nesting). */
  too_deep: {
    en: 'is nested too deeply; maximum nesting depth of objects and arrays:',
    fr: "est imbriqué trop profondément ; profondeur maximale d'imbrication des objets et tableaux :",
  },
  /** A request path whose percent-encoding does not decode to UTF-8 (`%E0%A4%A`). */
  percent_encoding: {
    en: 'holds a broken percent-encoding (a % not followed by two hex digits, or bytes that are not UTF-8)',
    fr: "contient un encodage-pourcent invalide (un % non suivi de deux chiffres hexadécimaux, ou des octets qui ne sont pas de l'UTF-8)",
  },
  /** The parts of a multipart/form-data upload (POST /v1/files/validate). */
  multipart_unreadable: {
    en: 'is not a readable multipart/form-data body (boundary, part headers or end of form)',
    fr: "n'est pas un corps multipart/form-data lisible (délimiteur, en-têtes de partie ou fin du formulaire)",
  },
  multipart_too_long: { en: 'is too long (at most 1,024 bytes)', fr: 'est trop long (1 024 octets au plus)' },
  multipart_too_many: {
    en: 'too many parts: one file and at most 10 fields',
    fr: 'trop de parties : un fichier et 10 champs au plus',
  },
  /** What no other problem names (a constraint of a DTO without its own words). */
  invalid: { en: 'is not valid', fr: "n'est pas valide" },
  multipart_second_file: {
    en: 'only one file is taken, in the field "file"',
    fr: 'un seul fichier est accepté, dans le champ « file »',
  },
} as const satisfies Record<string, Record<Lang, string>>;
export type RequestFieldProblem = keyof typeof REQUEST_FIELD_PROBLEMS;
