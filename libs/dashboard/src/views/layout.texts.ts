import { CURRENT_LIMITS } from '@ppfile/rules';

/** A test key's rows per request (the spec's limits), as the pages say it. */
export const TEST_ROWS = CURRENT_LIMITS.maxRowsTest;

/**
 * The layout's words (layout.ts: navigation, language switch, footer) and the words every page
 * shares (times, plans, key modes). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const LAYOUT_TEXTS = {
  htmlLang: { en: 'en', fr: 'fr' },
  skip: { en: 'Skip to content', fr: 'Aller au contenu' },
  brandSub: { en: 'dashboard', fr: 'tableau de bord' },
  nav: {
    usage: { en: 'Usage', fr: 'Consommation' },
    keys: { en: 'API keys', fr: 'Clés d’API' },
    files: { en: 'Files', fr: 'Fichiers' },
    build: { en: 'Build a file', fr: 'Construire un fichier' },
    try: { en: 'Try it', fr: 'Essayer' },
    account: { en: 'Account', fr: 'Compte' },
    signOut: { en: 'Sign out', fr: 'Se déconnecter' },
    docs: { en: 'API docs', fr: 'Documentation de l’API' },
  },
  langSwitch: { en: 'Language', fr: 'Langue' },
  footer: {
    en: 'ppfile prepares and checks files for the Passeport de Prévention portal. It never submits anything to the portal.',
    fr: 'ppfile prépare et vérifie les fichiers destinés au portail Passeport de Prévention. Il n’effectue jamais aucun dépôt sur le portail.',
  },
  time: {
    ago: { en: (t: string) => `${t} ago`, fr: (t: string) => `il y a ${t}` },
    justNow: { en: 'just now', fr: 'à l’instant' },
  },
  plans: {
    free: { en: 'Free', fr: 'Free' },
    starter: { en: 'Starter', fr: 'Starter' },
    pro: { en: 'Pro', fr: 'Pro' },
    business: { en: 'Business', fr: 'Business' },
  },
  modes: {
    live: { en: 'Live', fr: 'Live' },
    test: { en: 'Test', fr: 'Test' },
  },
};
