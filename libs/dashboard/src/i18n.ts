import { CURRENT_LIMITS, inLanguage, type InLanguage, type Lang } from '@ppfile/rules';

/** A test key's rows per request (the spec's limits), as the pages say it. */
const TEST_ROWS = CURRENT_LIMITS.maxRowsTest;

/**
 * Every word of the dashboard, each entry in English and French side by side (libs/rules
 * `Localized`, the one shape of ppfile's catalogues): a text missing in one language fails `tsc`.
 * Validation messages are not here: they come from libs/rules' catalogue (the same words as the
 * API's), in the page's language.
 */
const TEXTS = {
  htmlLang: { en: 'en', fr: 'fr' },
  skip: { en: 'Skip to content', fr: 'Aller au contenu' },
  brandSub: { en: 'dashboard', fr: 'tableau de bord' },
  nav: {
    usage: { en: 'Usage', fr: 'Consommation' },
    keys: { en: 'API keys', fr: 'Clés d’API' },
    files: { en: 'Files', fr: 'Fichiers' },
    try: { en: 'Try it', fr: 'Essayer' },
    account: { en: 'Account', fr: 'Compte' },
    signOut: { en: 'Sign out', fr: 'Se déconnecter' },
    docs: { en: 'API docs', fr: 'Doc. de l’API' },
  },
  langSwitch: { en: 'Language', fr: 'Langue' },
  footer: {
    en: 'ppfile prepares and checks files for the Passeport de Prévention portal. It never submits anything to the portal.',
    fr: 'ppfile prépare et vérifie des fichiers pour le portail Passeport de Prévention. Il ne dépose jamais rien sur le portail.',
  },
  signIn: {
    title: { en: 'Sign in', fr: 'Connexion' },
    intro: {
      en: 'Sign in to manage your organization’s API keys, usage and files.',
      fr: 'Connectez-vous pour gérer les clés d’API, la consommation et les fichiers de votre organisation.',
    },
    email: { en: 'E-mail address', fr: 'Adresse e-mail' },
    password: { en: 'Password', fr: 'Mot de passe' },
    submit: { en: 'Sign in', fr: 'Se connecter' },
    wrong: { en: 'Wrong e-mail address or password.', fr: 'Adresse e-mail ou mot de passe incorrect.' },
    throttled: {
      en: (minutes: number) =>
        `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      fr: (minutes: number) =>
        `Trop de tentatives de connexion échouées. Réessayez dans ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    },
    signedOut: { en: 'You are signed out.', fr: 'Vous êtes déconnecté.' },
    expired: {
      en: 'Your session has ended. Sign in again to continue.',
      fr: 'Votre session a pris fin. Reconnectez-vous pour continuer.',
    },
    passwordChanged: {
      en: 'Your password was changed. Sign in again on your other devices.',
      fr: 'Votre mot de passe a été changé. Reconnectez-vous sur vos autres appareils.',
    },
    noAccount: {
      en: 'No account yet? Your ppfile operator creates one and sends you an invitation link.',
      fr: 'Pas encore de compte\u00a0? Votre opérateur ppfile en crée un et vous envoie un lien d’invitation.',
    },
  },
  invite: {
    title: { en: 'Set your password', fr: 'Choisissez votre mot de passe' },
    intro: {
      en: (org: string) => `You were invited to the dashboard of ${org}. Choose a password to finish.`,
      fr: (org: string) =>
        `Vous êtes invité au tableau de bord de ${org}. Choisissez un mot de passe pour terminer.`,
    },
    invalidTitle: { en: 'Invitation link not valid', fr: 'Lien d’invitation non valable' },
    invalid: {
      en: 'This invitation link is unknown, was already used, or has expired. Ask your ppfile operator for a new one.',
      fr: 'Ce lien d’invitation est inconnu, a déjà servi ou a expiré. Demandez-en un nouveau à votre opérateur ppfile.',
    },
    submit: { en: 'Set password and sign in', fr: 'Enregistrer et se connecter' },
  },
  password: {
    new: { en: 'New password', fr: 'Nouveau mot de passe' },
    confirm: { en: 'Repeat the new password', fr: 'Répétez le nouveau mot de passe' },
    hint: {
      en: (min: number) =>
        `At least ${min} characters, not a common password. A passphrase of several words is easy to remember.`,
      fr: (min: number) =>
        `Au moins ${min} caractères, pas un mot de passe courant. Une phrase de plusieurs mots se retient facilement.`,
    },
    too_short: {
      en: (min: number) => `The password needs at least ${min} characters.`,
      fr: (min: number) => `Le mot de passe doit compter au moins ${min} caractères.`,
    },
    too_long: {
      en: (max: number) => `The password can have at most ${max} characters.`,
      fr: (max: number) => `Le mot de passe peut compter au plus ${max} caractères.`,
    },
    blank: {
      en: 'The password cannot be made of spaces only.',
      fr: 'Le mot de passe ne peut pas être fait que d’espaces.',
    },
    contains_email: {
      en: 'The password cannot contain your e-mail address or its part before the @.',
      fr: 'Le mot de passe ne peut pas contenir votre adresse e-mail ni sa partie avant le @.',
    },
    repeated: {
      en: 'The password repeats a character or a short pattern (like aaaa… or abcabc…). Choose one that is harder to guess.',
      fr: 'Le mot de passe répète un caractère ou un court motif (comme aaaa… ou abcabc…). Choisissez-en un plus difficile à deviner.',
    },
    sequence: {
      en: 'The password is a sequence (like 123456…, abcdef… or a keyboard row such as azerty…). Choose one that is harder to guess.',
      fr: 'Le mot de passe est une suite (comme 123456…, abcdef… ou une rangée du clavier comme azerty…). Choisissez-en un plus difficile à deviner.',
    },
    common: {
      en: 'This password is one of the most common ones, which attackers try first (with or without digits at the end). Choose another one — a passphrase of several words, for example.',
      fr: 'Ce mot de passe est l’un des plus courants, que les attaquants essaient en premier (avec ou sans chiffres à la fin). Choisissez-en un autre, par exemple une phrase de plusieurs mots.',
    },
    mismatch: { en: 'The two passwords differ.', fr: 'Les deux mots de passe diffèrent.' },
  },
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
  keys: {
    title: { en: 'API keys', fr: 'Clés d’API' },
    introBefore: {
      en: 'Programs call the API with a key in the header',
      fr: 'Les programmes appellent l’API avec une clé dans l’en-tête',
    },
    introHeader: { en: 'Authorization: Bearer <key>', fr: 'Authorization: Bearer <clé>' },
    introAfter: {
      en: `Test keys are free (${TEST_ROWS} rows a request); live keys count units against your quota.`,
      fr: `Les clés de test sont gratuites (${TEST_ROWS} lignes par requête)\u00a0; les clés live consomment des unités de votre quota.`,
    },
    name: { en: 'Name', fr: 'Nom' },
    mode: { en: 'Mode', fr: 'Mode' },
    prefix: { en: 'Key', fr: 'Clé' },
    created: { en: 'Created', fr: 'Créée' },
    lastUsed: { en: 'Last used', fr: 'Dernière utilisation' },
    status: { en: 'Status', fr: 'État' },
    never: { en: 'never', fr: 'jamais' },
    active: { en: 'Active', fr: 'Active' },
    revokedOn: { en: (date: string) => `Revoked ${date}`, fr: (date: string) => `Révoquée le ${date}` },
    revoke: { en: 'Revoke…', fr: 'Révoquer…' },
    none: { en: 'No key yet.', fr: 'Aucune clé pour l’instant.' },
    unnamed: { en: '(no name)', fr: '(sans nom)' },
    createTitle: { en: 'Create a key', fr: 'Créer une clé' },
    nameLabel: { en: 'Name (optional)', fr: 'Nom (facultatif)' },
    namePlaceholder: { en: 'e.g. payroll export', fr: 'p. ex. export paie' },
    modeTest: { en: 'Test', fr: 'Test' },
    modeTestHelp: {
      en: `free, ${TEST_ROWS} rows a request, for trying`,
      fr: `gratuite, ${TEST_ROWS} lignes par requête, pour essayer`,
    },
    modeLive: { en: 'Live', fr: 'Live' },
    modeLiveHelp: {
      en: 'counts units against your monthly quota',
      fr: 'consomme des unités de votre quota mensuel',
    },
    createSubmit: { en: 'Create key', fr: 'Créer la clé' },
    createdTitle: { en: 'Your new key', fr: 'Votre nouvelle clé' },
    createdWarning: {
      en: 'Copy this key now: it is shown only once. ppfile keeps only a hash of it and cannot show it again.',
      fr: 'Copiez cette clé maintenant\u00a0: elle n’est affichée qu’une fois. ppfile n’en garde qu’une empreinte et ne peut pas la réafficher.',
    },
    copy: { en: 'Copy', fr: 'Copier' },
    copied: { en: 'Copied', fr: 'Copiée' },
    done: { en: 'I have stored it — back to the keys', fr: 'Je l’ai enregistrée — retour aux clés' },
    example: { en: 'Try it:', fr: 'Pour essayer\u00a0:' },
    revokeTitle: { en: 'Revoke this key?', fr: 'Révoquer cette clé\u00a0?' },
    revokeText: {
      en: 'Programs that use this key will be refused (401) within a few seconds. This cannot be undone; create a new key to replace it.',
      fr: 'Les programmes qui utilisent cette clé seront refusés (401) d’ici quelques secondes. C’est définitif\u00a0; créez une nouvelle clé pour la remplacer.',
    },
    revokeConfirm: {
      en: (name: string) =>
        `Revoke the key ${name}? Programs using it will be refused. This cannot be undone.`,
      fr: (name: string) =>
        `Révoquer la clé ${name}\u00a0? Les programmes qui l’utilisent seront refusés. C’est définitif.`,
    },
    revokeSubmit: { en: 'Revoke key', fr: 'Révoquer la clé' },
    cancel: { en: 'Cancel', fr: 'Annuler' },
    revoked: {
      en: (name: string) => `The key ${name} was revoked.`,
      fr: (name: string) => `La clé ${name} a été révoquée.`,
    },
    alreadyRevoked: { en: 'This key is already revoked.', fr: 'Cette clé est déjà révoquée.' },
    nameTooLong: {
      en: (max: number) => `The name can have at most ${max} characters.`,
      fr: (max: number) => `Le nom peut compter au plus ${max} caractères.`,
    },
    modeRequired: { en: 'Choose test or live.', fr: 'Choisissez test ou live.' },
  },
  files: {
    title: { en: 'Files', fr: 'Fichiers' },
    intro: {
      en: 'Files your organization generated through the API. Available files can be downloaded until they expire.',
      fr: 'Les fichiers générés par votre organisation avec l’API. Les fichiers disponibles se téléchargent jusqu’à leur expiration.',
    },
    file: { en: 'File', fr: 'Fichier' },
    kind: { en: 'Kind', fr: 'Type' },
    key: { en: 'Key', fr: 'Clé' },
    status: { en: 'Status', fr: 'État' },
    rows: { en: 'Rows', fr: 'Lignes' },
    created: { en: 'Created', fr: 'Créé' },
    expires: { en: 'Expires', fr: 'Expire' },
    download: { en: 'Download', fr: 'Télécharger' },
    none: {
      en: 'No file yet. Files generated with POST /v1/files/generate appear here.',
      fr: 'Aucun fichier pour l’instant. Les fichiers générés avec POST /v1/files/generate apparaissent ici.',
    },
    status_processing: { en: 'Processing', fr: 'En cours' },
    status_available: { en: 'Available', fr: 'Disponible' },
    status_not_stored: { en: 'Not stored', fr: 'Non conservé' },
    status_expired: { en: 'Expired', fr: 'Expiré' },
    status_failed: { en: 'Failed', fr: 'Échec' },
    inTime: { en: (t: string) => `in ${t}`, fr: (t: string) => `dans ${t}` },
    expired: { en: 'expired', fr: 'expiré' },
    previous: { en: '← Newer', fr: '← Plus récents' },
    next: { en: 'Older →', fr: 'Plus anciens →' },
    pageOf: {
      en: (page: number, pages: number, total: string) => `Page ${page} of ${pages} · ${total} files`,
      fr: (page: number, pages: number, total: string) => `Page ${page} sur ${pages} · ${total} fichiers`,
    },
    notAvailable: { en: 'This file cannot be downloaded.', fr: 'Ce fichier ne peut pas être téléchargé.' },
    notStored: {
      en: 'This file was generated with store: false: only its metadata was kept.',
      fr: 'Ce fichier a été généré avec store: false\u00a0: seules ses métadonnées ont été gardées.',
    },
    processing: {
      en: 'This file is still being generated. Try again in a few seconds.',
      fr: 'Ce fichier est encore en cours de génération. Réessayez dans quelques secondes.',
    },
    failed: {
      en: 'The generation of this file failed; nothing was kept.',
      fr: 'La génération de ce fichier a échoué\u00a0; rien n’a été gardé.',
    },
    expiredText: {
      en: 'This file has expired and was deleted.',
      fr: 'Ce fichier a expiré et a été supprimé.',
    },
    back: { en: 'Back to the files', fr: 'Retour aux fichiers' },
  },
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
  account: {
    title: { en: 'Account', fr: 'Compte' },
    email: { en: 'E-mail address', fr: 'Adresse e-mail' },
    organization: { en: 'Organization', fr: 'Organisation' },
    plan: { en: 'Plan', fr: 'Offre' },
    memberSince: { en: 'Member since', fr: 'Membre depuis' },
    people: { en: 'People with access', fr: 'Personnes ayant accès' },
    you: { en: 'you', fr: 'vous' },
    invited: { en: 'invitation pending', fr: 'invitation en attente' },
    peopleHelp: {
      en: 'Your ppfile operator adds people with the command',
      fr: 'Votre opérateur ppfile ajoute des personnes avec la commande',
    },
    changePassword: { en: 'Change password', fr: 'Changer de mot de passe' },
    current: { en: 'Current password', fr: 'Mot de passe actuel' },
    wrongCurrent: { en: 'The current password is wrong.', fr: 'Le mot de passe actuel est incorrect.' },
    changeSubmit: { en: 'Change password', fr: 'Changer le mot de passe' },
    changed: {
      en: 'Your password was changed. Your other sessions were signed out.',
      fr: 'Votre mot de passe a été changé. Vos autres sessions ont été fermées.',
    },
    everywhere: { en: 'Sign out everywhere', fr: 'Se déconnecter partout' },
    everywhereText: {
      en: 'Ends every session of your account, on every device, including this one.',
      fr: 'Ferme toutes les sessions de votre compte, sur tous les appareils, y compris celui-ci.',
    },
    everywhereSubmit: { en: 'Sign out everywhere', fr: 'Se déconnecter partout' },
  },
  errors: {
    notFoundTitle: { en: 'Page not found', fr: 'Page introuvable' },
    notFound: {
      en: 'There is nothing here, or it belongs to another organization.',
      fr: 'Il n’y a rien ici, ou cela appartient à une autre organisation.',
    },
    forbiddenTitle: { en: 'Request refused', fr: 'Requête refusée' },
    forbidden: {
      en: 'This form was out of date or sent from another site. Reload the page and try again.',
      fr: 'Ce formulaire n’était plus à jour ou venait d’un autre site. Rechargez la page et réessayez.',
    },
    unavailableTitle: { en: 'Temporarily unavailable', fr: 'Indisponible pour l’instant' },
    unavailable: {
      en: 'A service the dashboard needs is unavailable. Nothing was changed. Try again in a minute.',
      fr: 'Un service dont le tableau de bord a besoin est indisponible. Rien n’a été modifié. Réessayez dans une minute.',
    },
    internalTitle: { en: 'Something went wrong', fr: 'Une erreur s’est produite' },
    internal: {
      en: 'An unexpected error occurred. Nothing was changed.',
      fr: 'Une erreur inattendue s’est produite. Rien n’a été modifié.',
    },
    tooLargeTitle: { en: 'Too large', fr: 'Trop volumineux' },
    tooLarge: { en: 'The form sent was too large.', fr: 'Le formulaire envoyé était trop volumineux.' },
    home: { en: 'Back to the dashboard', fr: 'Retour au tableau de bord' },
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

/** The dashboard's words in one language, as a page renders with them. */
export type Messages = InLanguage<typeof TEXTS>;

export const MESSAGES: Readonly<Record<Lang, Messages>> = {
  en: inLanguage(TEXTS, 'en'),
  fr: inLanguage(TEXTS, 'fr'),
};

const LOCALES: Record<Lang, string> = { en: 'en-GB', fr: 'fr-FR' };
/** People of French organizations read Paris time; the usage month itself is UTC (SERVICE.md §8). */
export const DISPLAY_TIME_ZONE = 'Europe/Paris';

/** Number, date and duration formatting in one language. */
export class Formats {
  private readonly numbers: Intl.NumberFormat;
  private readonly percents: Intl.NumberFormat;
  private readonly dateTimes: Intl.DateTimeFormat;
  private readonly dates: Intl.DateTimeFormat;
  private readonly utcDates: Intl.DateTimeFormat;
  private readonly months: Intl.DateTimeFormat;
  private readonly shortDateTimes: Intl.DateTimeFormat;
  private readonly years: Intl.DateTimeFormat;
  private readonly longMonths: Intl.DateTimeFormat;

  constructor(readonly lang: Lang) {
    const locale = LOCALES[lang];
    this.numbers = new Intl.NumberFormat(locale);
    this.percents = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
    this.dateTimes = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: DISPLAY_TIME_ZONE,
    });
    this.dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: DISPLAY_TIME_ZONE });
    this.utcDates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    this.months = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
    this.shortDateTimes = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: DISPLAY_TIME_ZONE,
    });
    this.years = new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone: DISPLAY_TIME_ZONE });
    this.longMonths = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  }

  number(n: number): string {
    return this.numbers.format(n);
  }

  percent(ratio: number): string {
    return this.percents.format(ratio);
  }

  dateTime(d: Date): string {
    return this.dateTimes.format(d);
  }

  /** "23 Nov, 16:01" within the current year (Paris time), the full date and time otherwise. */
  shortDateTime(d: Date, now: Date): string {
    return this.years.format(d) === this.years.format(now)
      ? this.shortDateTimes.format(d)
      : this.dateTimes.format(d);
  }

  date(d: Date): string {
    return this.dates.format(d);
  }

  /** A calendar day in UTC (the reset of the usage month); French writes the first of a month "1er". */
  utcDate(d: Date): string {
    const text = this.utcDates.format(d);
    return this.lang === 'fr' && d.getUTCDate() === 1 ? text.replace(/^1 /, '1er ') : text;
  }

  /** "Nov" / "nov." of a YYYY-MM month. */
  shortMonth(month: string): string {
    return this.months.format(new Date(`${month}-01T00:00:00Z`));
  }

  /** "November 2026" / "novembre 2026". */
  longMonth(month: string): string {
    return this.longMonths.format(new Date(`${month}-01T00:00:00Z`));
  }

  /** A duration as "2 d 3 h", "23 h 12 min", "5 min" (the same words in both languages). */
  duration(ms: number): string {
    const minutes = Math.max(0, Math.floor(ms / 60_000));
    const days = Math.floor(minutes / 1440);
    const hours = Math.floor((minutes % 1440) / 60);
    const mins = minutes % 60;
    if (days > 0) return `${days} ${this.lang === 'fr' ? 'j' : 'd'} ${hours} h`;
    if (hours > 0) return `${hours} h ${String(mins).padStart(2, '0')} min`;
    return `${Math.max(1, mins)} min`;
  }

  /** "3 min ago" / "il y a 3 min"; "just now" under a minute. */
  ago(then: Date, now: Date): string {
    const ms = now.getTime() - then.getTime();
    if (ms < 60_000) return MESSAGES[this.lang].time.justNow;
    return MESSAGES[this.lang].time.ago(this.duration(ms));
  }
}

/** The dashboard's language: the switch's cookie when set, else the browser's Accept-Language. */
export function dashboardLang(
  cookie: string | undefined,
  acceptLanguage: string | undefined,
  pick: (v: string | undefined) => Lang,
): Lang {
  if (cookie === 'en' || cookie === 'fr') return cookie;
  return pick(acceptLanguage);
}
