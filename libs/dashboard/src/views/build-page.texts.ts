/**
 * The Build page's words on the server's side (build-page.ts: the shell the front end fills; the JSON
 * refusals of its requests, build-errors.ts and build.controller.ts). The page's own words live with its
 * components (libs/dashboard/web/src/build). English and French side by side (libs/rules `Localized`);
 * i18n.ts joins the catalogues of every page into the dashboard's one.
 */
export const BUILD_TEXTS = {
  build: {
    title: { en: 'Build a file', fr: 'Construire un fichier' },
    lead: {
      en: 'From your spreadsheet to the portal’s file. Your file is read and checked in this browser: nothing of it is sent until you press Generate.',
      fr: 'Du tableur au fichier à déposer sur le portail. Votre fichier est lu et vérifié dans ce navigateur\u00a0: aucune donnée n’est envoyée avant que vous cliquiez sur «\u00a0Générer\u00a0».',
    },
    loading: { en: 'Loading the page…', fr: 'Chargement de la page…' },
    noScript: {
      en: 'This page needs JavaScript: it checks your file on your computer, so that none of your employees’ data is sent before you generate the file. Turn JavaScript on, or use the API or the command-line tool.',
      fr: 'Cette page nécessite JavaScript\u00a0: c’est votre ordinateur qui vérifie le fichier, afin qu’aucune donnée de vos salariés ne soit envoyée avant la génération. Activez JavaScript, ou utilisez l’API ou l’outil en ligne de commande.',
    },
    refusals: {
      signInRequired: {
        en: 'You are signed out. Sign in again, then retry.',
        fr: 'Votre session a pris fin. Reconnectez-vous, puis réessayez.',
      },
      csrfRejected: {
        en: 'This request was not sent by the dashboard’s page (its security token is missing or out of date). Reload the page and try again.',
        fr: 'Cette requête ne provient pas de la page du tableau de bord (jeton de sécurité absent ou périmé). Rechargez la page et réessayez.',
      },
      idempotencyKeyRequired: {
        en: 'is required: the page sends one per file, so that a second click makes no second file',
        fr: 'est obligatoire\u00a0: la page en envoie une par fichier, pour qu’un double clic ne crée pas deux fichiers',
      },
      mappingTooMany: {
        en: (max: number) => `has more than ${max} headers`,
        fr: (max: number) => `compte plus de ${max} en-têtes`,
      },
      headerEmpty: {
        en: (n: number) => `header no. ${n} is empty`,
        fr: (n: number) => `l’en-tête n°\u00a0${n} est vide`,
      },
      headerTooLong: {
        en: (n: number, max: number) =>
          `header no. ${n} is longer than ${max} characters: only a column’s header is kept, never a cell`,
        fr: (n: number, max: number) =>
          `l’en-tête n°\u00a0${n} dépasse ${max} caractères\u00a0: seul l’intitulé d’une colonne est enregistré, jamais le contenu d’une cellule`,
      },
      headerLooksLikeData: {
        en: (n: number) =>
          `header no. ${n} looks like a cell’s content (a long number, an e-mail address or a date): only a column’s header is kept, never a cell`,
        fr: (n: number) =>
          `l’en-tête n°\u00a0${n} ressemble au contenu d’une cellule (un long numéro, une adresse e-mail ou une date)\u00a0: seul l’intitulé d’une colonne est enregistré, jamais le contenu d’une cellule`,
      },
      unknownColumn: {
        en: (n: number) =>
          `header no. ${n}: not a column of this kind of file (name one of its columns, or null)`,
        fr: (n: number) =>
          `en-tête n°\u00a0${n}\u00a0: cette colonne n’existe pas pour ce type de fichier (indiquez l’une de ses colonnes, ou null)`,
      },
    },
  },
};
