/**
 * The Try it page's words (try-page.ts). English and French side by side (libs/rules `Localized`); i18n.ts joins
 * the catalogues of every page into the dashboard's one.
 */
export const TRY_TEXTS = {
  tryIt: {
    title: { en: 'Try it', fr: 'Essayer' },
    intro: {
      en: 'Check a CSV file against the portal’s format, with the same rules, reference lists and limits as the API (POST /v1/files/validate with a live key).',
      fr: 'Vérifiez qu’un fichier CSV respecte le format du portail, avec les mêmes règles, listes de référence et limites que l’API (POST /v1/files/validate avec une clé live).',
    },
    privacy: {
      en: 'Your file is checked here, on this computer, by your browser: nothing of it is sent to ppfile or anywhere else — not a row, not a name, not a social security number.',
      fr: 'Votre fichier est vérifié ici, sur votre ordinateur, par votre navigateur\u00a0: rien n’en est envoyé, ni à ppfile ni ailleurs — pas une ligne, pas un nom, pas un numéro de sécurité sociale.',
    },
    noscript: {
      en: 'This page needs JavaScript: your browser checks the file itself, on this computer, so that nothing of it is sent.',
      fr: 'Cette page nécessite JavaScript\u00a0: c’est votre navigateur qui vérifie le fichier, sur votre ordinateur, afin que rien n’en soit envoyé.',
    },
    progress: { en: 'Checking the file', fr: 'Vérification du fichier' },
    failed: {
      en: (reason: string) => `The check could not run: ${reason}`,
      fr: (reason: string) => `La vérification n’a pas pu aboutir\u00a0: ${reason}`,
    },
    drop: { en: 'Drop a CSV file here', fr: 'Glissez-déposez un fichier CSV ici' },
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
      fr: 'Traiter les codes de référence inconnus comme des erreurs (contrôle strict)',
    },
    submit: { en: 'Check the file', fr: 'Vérifier le fichier' },
    checking: { en: 'Checking…', fr: 'Vérification…' },
    cancel: { en: 'Cancel', fr: 'Annuler' },
    noFile: { en: 'Choose a CSV file to check.', fr: 'Choisissez un fichier CSV à vérifier.' },
    result: { en: 'Result', fr: 'Résultat' },
    valid: { en: 'The file is valid.', fr: 'Le fichier est valide.' },
    validNote: {
      en: 'The portal can still refuse rows only it can check (an ID already used, a NIR and birth name it does not know, a SIRET that does not exist).',
      fr: 'Le portail peut toutefois rejeter des lignes sur des points que lui seul peut contrôler (un identifiant déjà utilisé, un couple NIR et nom de naissance qu’il ne connaît pas, un SIRET inexistant).',
    },
    invalid: { en: 'The file has errors.', fr: 'Le fichier contient des erreurs.' },
    rejected: { en: 'The file was rejected as a whole.', fr: 'Le fichier est rejeté dans son ensemble.' },
    rowsTotal: { en: 'Rows', fr: 'Lignes' },
    rowsValid: { en: 'Valid rows', fr: 'Lignes valides' },
    rowsInvalid: { en: 'Invalid rows', fr: 'Lignes invalides' },
    errors: { en: 'Errors', fr: 'Erreurs' },
    warnings: { en: 'Warnings', fr: 'Avertissements' },
    truncated: {
      en: (n: string) => `Only the first ${n} errors are listed; the counts include them all.`,
      fr: (n: string) =>
        `Seules les ${n} premières erreurs sont listées\u00a0; les totaux portent sur toutes les erreurs.`,
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
      fr: 'Les numéros de ligne sont ceux du fichier, comptés comme le fait le portail\u00a0: l’en-tête est la ligne 1, la première ligne de données la ligne 2.',
    },
    allErrors: { en: 'Every error', fr: 'Toutes les erreurs' },
    row: { en: 'Row', fr: 'Ligne' },
    message: { en: 'Message', fr: 'Message' },
    downloadReport: { en: 'Download the error report (CSV)', fr: 'Télécharger le rapport d’erreurs (CSV)' },
    moreRows: { en: (n: string) => `and ${n} more`, fr: (n: string) => `et ${n} autres` },
    again: { en: 'Check another file', fr: 'Vérifier un autre fichier' },
  },
};
