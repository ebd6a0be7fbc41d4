import { TEST_ROWS } from './layout.texts';

/**
 * The usage page's words (usage-page.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const USAGE_TEXTS = {
  usage: {
    title: { en: 'Usage', fr: 'Consommation' },
    welcome: {
      en: 'Welcome! Your password is set. Create a test key below to try the API.',
      fr: 'Bienvenue\u00a0! Votre mot de passe est enregistré. Créez une clé de test pour essayer l’API.',
    },
    thisMonth: { en: 'This month', fr: 'Ce mois-ci' },
    unitsOf: {
      en: (used: string, limit: string) => `${used} of ${limit} units`,
      fr: (used: string, limit: string) => `${used} unités sur ${limit}`,
    },
    percentUsed: { en: (p: string) => `${p} used`, fr: (p: string) => `${p} consommés` },
    reserved: {
      en: (n: string) => `${n} reserved for work in progress`,
      fr: (n: string) => `${n} réservées pour des traitements en cours`,
    },
    resets: {
      en: (date: string) => `Resets on ${date} (00:00 UTC).`,
      fr: (date: string) => `Remise à zéro le ${date} (00 h 00 UTC).`,
    },
    unitHelp: {
      en: 'One unit is one row of a generated or validated file, with a live key. Test keys are free.',
      fr: 'Une unité est une ligne d’un fichier généré ou validé avec une clé live. Les clés de test sont gratuites.',
    },
    plan: { en: 'Plan', fr: 'Offre' },
    planQuota: { en: (n: string) => `${n} units a month`, fr: (n: string) => `${n} unités par mois` },
    perMinute: { en: 'Requests per minute', fr: 'Requêtes par minute' },
    perMinuteHelp: { en: 'per key and per organization', fr: 'par clé et par organisation' },
    testRows: { en: 'Test rows this month', fr: 'Lignes de test ce mois-ci' },
    testRowsHelp: {
      en: (limit: string) => `of ${limit} allowed to test keys`,
      fr: (limit: string) => `sur ${limit} permises aux clés de test`,
    },
    history: { en: 'Last 12 months', fr: '12 derniers mois' },
    historyAria: {
      en: (summary: string) => `Units used per month over the last 12 months: ${summary}`,
      fr: (summary: string) => `Unités consommées par mois sur les 12 derniers mois\u00a0: ${summary}`,
    },
    quotaLine: {
      en: (limit: string) => `Monthly quota: ${limit}`,
      fr: (limit: string) => `Quota mensuel\u00a0: ${limit}`,
    },
    quotaAbove: {
      en: (limit: string) => `Monthly quota: ${limit} (above this scale)`,
      fr: (limit: string) => `Quota mensuel\u00a0: ${limit} (au-dessus de cette échelle)`,
    },
    showTable: { en: 'Show as a table', fr: 'Afficher en tableau' },
    month: { en: 'Month', fr: 'Mois' },
    units: { en: 'Units', fr: 'Unités' },
    testRowsColumn: { en: 'Test rows', fr: 'Lignes de test' },
    getStarted: { en: 'Get started', fr: 'Pour commencer' },
    getStartedText: {
      en: `Create a test key, then call the API. Test keys are free and limited to ${TEST_ROWS} rows a request.`,
      fr: `Créez une clé de test, puis appelez l’API. Les clés de test sont gratuites et limitées à ${TEST_ROWS} lignes par requête.`,
    },
    createKey: { en: 'Create a key', fr: 'Créer une clé' },
    recentFiles: { en: 'Recent files', fr: 'Fichiers récents' },
    allFiles: { en: 'All files', fr: 'Tous les fichiers' },
    noFiles: { en: 'No file yet.', fr: 'Aucun fichier pour l’instant.' },
  },
};
