import { TEST_ROWS } from './layout.texts';

/**
 * The Try it page's words (try-page.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const TRY_TEXTS = {
  tryIt: {
    title: { en: 'Try it', fr: 'Essayer' },
    intro: {
      en: `Check a CSV file as the API does (POST /v1/files/validate), with a test key’s limits: at most ${TEST_ROWS} rows. Nothing is stored or counted; the file stays in memory while it is checked.`,
      fr: `Vérifiez un fichier CSV comme le fait l’API (POST /v1/files/validate), avec les limites d’une clé de test\u00a0: ${TEST_ROWS} lignes au plus. Rien n’est conservé ni compté\u00a0; le fichier reste en mémoire le temps de la vérification.`,
    },
    drop: { en: 'Drop a CSV file here', fr: 'Déposez un fichier CSV ici' },
    or: { en: 'or', fr: 'ou' },
    choose: { en: 'choose a file', fr: 'choisissez un fichier' },
    chosen: { en: 'Chosen file:', fr: 'Fichier choisi\u00a0:' },
    type: { en: 'File type', fr: 'Type de fichier' },
    typeAdf: { en: 'ADF — attestation de formation', fr: 'ADF — attestation de formation' },
    typeJdr: { en: 'JDR — justificatif de réussite', fr: 'JDR — justificatif de réussite' },
    declarant: { en: 'Declarant', fr: 'Déclarant' },
    declarantEmployer: { en: 'Employer', fr: 'Employeur' },
    declarantOf: { en: 'Training organization', fr: 'Organisme de formation' },
    strict: {
      en: 'Unknown reference codes are errors (strict references)',
      fr: 'Les codes de référence inconnus sont des erreurs (références strictes)',
    },
    submit: { en: 'Check the file', fr: 'Vérifier le fichier' },
    checking: { en: 'Checking…', fr: 'Vérification…' },
    noFile: { en: 'Choose a CSV file to check.', fr: 'Choisissez un fichier CSV à vérifier.' },
    tooLarge: {
      en: (mb: number) =>
        `The file is over ${mb} MB. Try it checks small files (${TEST_ROWS} rows); send larger ones to the API.`,
      fr: (mb: number) =>
        `Le fichier dépasse ${mb} Mo. Essayer vérifie de petits fichiers (${TEST_ROWS} lignes)\u00a0; envoyez les plus grands à l’API.`,
    },
    tooManyRows: {
      en: (limit: number, rows: string) =>
        `The file has ${rows} rows; Try it checks at most ${limit} (a test key’s limit). Send it to the API with a live key.`,
      fr: (limit: number, rows: string) =>
        `Le fichier compte ${rows} lignes\u00a0; Essayer en vérifie ${limit} au plus (la limite d’une clé de test). Envoyez-le à l’API avec une clé live.`,
    },
    throttled: {
      en: (s: number) => `Too many checks this minute. Try again in ${s} s.`,
      fr: (s: number) => `Trop de vérifications cette minute. Réessayez dans ${s} s.`,
    },
    result: { en: 'Result', fr: 'Résultat' },
    valid: { en: 'The file is valid.', fr: 'Le fichier est valide.' },
    validNote: {
      en: 'The portal can still refuse rows only it can check (an ID already used, a NIR and birth name it does not know, a SIRET that does not exist).',
      fr: 'Le portail peut encore refuser des lignes que lui seul peut vérifier (un identifiant déjà utilisé, un couple NIR et nom de naissance inconnu, un SIRET inexistant).',
    },
    invalid: { en: 'The file has errors.', fr: 'Le fichier contient des erreurs.' },
    rejected: { en: 'The file was rejected as a whole.', fr: 'Le fichier a été refusé dans son ensemble.' },
    rowsTotal: { en: 'Rows', fr: 'Lignes' },
    rowsValid: { en: 'Valid rows', fr: 'Lignes valides' },
    rowsInvalid: { en: 'Invalid rows', fr: 'Lignes invalides' },
    errors: { en: 'Errors', fr: 'Erreurs' },
    warnings: { en: 'Warnings', fr: 'Avertissements' },
    truncated: {
      en: (n: string) => `Only the first ${n} errors are listed; the counts include them all.`,
      fr: (n: string) =>
        `Seules les ${n} premières erreurs sont listées\u00a0; les totaux les comptent toutes.`,
    },
    byCode: { en: 'By code', fr: 'Par code' },
    byColumn: { en: 'By column', fr: 'Par colonne' },
    code: { en: 'Code', fr: 'Code' },
    column: { en: 'Column', fr: 'Colonne' },
    count: { en: 'Count', fr: 'Nombre' },
    rows: { en: 'Rows', fr: 'Lignes' },
    example: { en: 'Message (first occurrence)', fr: 'Message (première occurrence)' },
    fileLevel: { en: '(whole file)', fr: '(fichier entier)' },
    rowNote: {
      en: 'Rows are lines of the file, as the portal counts them: the header is line 1, the first data row line 2.',
      fr: 'Les lignes sont celles du fichier, comme le portail les compte\u00a0: l’en-tête est la ligne 1, la première donnée la ligne 2.',
    },
    allErrors: { en: 'Every error', fr: 'Toutes les erreurs' },
    row: { en: 'Row', fr: 'Ligne' },
    message: { en: 'Message', fr: 'Message' },
    downloadReport: { en: 'Download the error report (CSV)', fr: 'Télécharger le rapport d’erreurs (CSV)' },
    moreRows: { en: (n: string) => `and ${n} more`, fr: (n: string) => `et ${n} de plus` },
    again: { en: 'Check another file', fr: 'Vérifier un autre fichier' },
  },
};
