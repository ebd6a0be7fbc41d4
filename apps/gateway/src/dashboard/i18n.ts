import { CURRENT_LIMITS, type Lang } from '@ppfile/rules';

/** A test key's rows per request (the spec's limits), as the pages say it. */
const TEST_ROWS = CURRENT_LIMITS.maxRowsTest;

/**
 * Every word of the dashboard, in English and French. `FR` has the type of `EN`: a text missing in
 * one language fails `tsc`. Validation messages are not here: they come from libs/rules' catalogue
 * (the same words as the API's), in the page's language.
 */
const EN = {
  htmlLang: 'en',
  skip: 'Skip to content',
  brandSub: 'dashboard',
  nav: {
    usage: 'Usage',
    keys: 'API keys',
    files: 'Files',
    try: 'Try it',
    account: 'Account',
    signOut: 'Sign out',
    docs: 'API docs',
  },
  langSwitch: 'Language',
  footer:
    'ppfile prepares and checks files for the Passeport de Prévention portal. It never submits anything to the portal.',
  signIn: {
    title: 'Sign in',
    intro: 'Sign in to manage your organization’s API keys, usage and files.',
    email: 'E-mail address',
    password: 'Password',
    submit: 'Sign in',
    wrong: 'Wrong e-mail address or password.',
    throttled: (minutes: number) =>
      `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    signedOut: 'You are signed out.',
    expired: 'Your session has ended. Sign in again to continue.',
    passwordChanged: 'Your password was changed. Sign in again on your other devices.',
    noAccount: 'No account yet? Your ppfile operator creates one and sends you an invitation link.',
  },
  invite: {
    title: 'Set your password',
    intro: (org: string) => `You were invited to the dashboard of ${org}. Choose a password to finish.`,
    invalidTitle: 'Invitation link not valid',
    invalid:
      'This invitation link is unknown, was already used, or has expired. Ask your ppfile operator for a new one.',
    submit: 'Set password and sign in',
  },
  password: {
    new: 'New password',
    confirm: 'Repeat the new password',
    hint: (min: number) =>
      `At least ${min} characters, not a common password. A passphrase of several words is easy to remember.`,
    too_short: (min: number) => `The password needs at least ${min} characters.`,
    too_long: (max: number) => `The password can have at most ${max} characters.`,
    blank: 'The password cannot be made of spaces only.',
    contains_email: 'The password cannot contain your e-mail address or its part before the @.',
    repeated:
      'The password repeats a character or a short pattern (like aaaa… or abcabc…). Choose one that is harder to guess.',
    sequence:
      'The password is a sequence (like 123456…, abcdef… or a keyboard row such as azerty…). Choose one that is harder to guess.',
    common:
      'This password is one of the most common ones, which attackers try first (with or without digits at the end). Choose another one — a passphrase of several words, for example.',
    mismatch: 'The two passwords differ.',
  },
  usage: {
    title: 'Usage',
    welcome: 'Welcome! Your password is set. Create a test key below to try the API.',
    thisMonth: 'This month',
    unitsOf: (used: string, limit: string) => `${used} of ${limit} units`,
    percentUsed: (p: string) => `${p} used`,
    reserved: (n: string) => `${n} reserved for work in progress`,
    resets: (date: string) => `Resets on ${date} (00:00 UTC).`,
    unitHelp: 'One unit is one row of a generated or validated file, with a live key. Test keys are free.',
    plan: 'Plan',
    planQuota: (n: string) => `${n} units a month`,
    perMinute: 'Requests per minute',
    perMinuteHelp: 'per key and per organization',
    testRows: 'Test rows this month',
    testRowsHelp: (limit: string) => `of ${limit} allowed to test keys`,
    history: 'Last 12 months',
    historyAria: (summary: string) => `Units used per month over the last 12 months: ${summary}`,
    quotaLine: (limit: string) => `Monthly quota: ${limit}`,
    quotaAbove: (limit: string) => `Monthly quota: ${limit} (above this scale)`,
    showTable: 'Show as a table',
    month: 'Month',
    units: 'Units',
    testRowsColumn: 'Test rows',
    getStarted: 'Get started',
    getStartedText: `Create a test key, then call the API. Test keys are free and limited to ${TEST_ROWS} rows a request.`,
    createKey: 'Create a key',
    recentFiles: 'Recent files',
    allFiles: 'All files',
    noFiles: 'No file yet.',
  },
  keys: {
    title: 'API keys',
    introBefore: 'Programs call the API with a key in the header',
    introHeader: 'Authorization: Bearer <key>',
    introAfter: `Test keys are free (${TEST_ROWS} rows a request); live keys count units against your quota.`,
    name: 'Name',
    mode: 'Mode',
    prefix: 'Key',
    created: 'Created',
    lastUsed: 'Last used',
    status: 'Status',
    never: 'never',
    active: 'Active',
    revokedOn: (date: string) => `Revoked ${date}`,
    revoke: 'Revoke…',
    none: 'No key yet.',
    unnamed: '(no name)',
    createTitle: 'Create a key',
    nameLabel: 'Name (optional)',
    namePlaceholder: 'e.g. payroll export',
    modeTest: 'Test',
    modeTestHelp: `free, ${TEST_ROWS} rows a request, for trying`,
    modeLive: 'Live',
    modeLiveHelp: 'counts units against your monthly quota',
    createSubmit: 'Create key',
    createdTitle: 'Your new key',
    createdWarning:
      'Copy this key now: it is shown only once. ppfile keeps only a hash of it and cannot show it again.',
    copy: 'Copy',
    copied: 'Copied',
    done: 'I have stored it — back to the keys',
    example: 'Try it:',
    revokeTitle: 'Revoke this key?',
    revokeText:
      'Programs that use this key will be refused (401) within a few seconds. This cannot be undone; create a new key to replace it.',
    revokeConfirm: (name: string) =>
      `Revoke the key ${name}? Programs using it will be refused. This cannot be undone.`,
    revokeSubmit: 'Revoke key',
    cancel: 'Cancel',
    revoked: (name: string) => `The key ${name} was revoked.`,
    alreadyRevoked: 'This key is already revoked.',
    nameTooLong: (max: number) => `The name can have at most ${max} characters.`,
    modeRequired: 'Choose test or live.',
  },
  files: {
    title: 'Files',
    intro:
      'Files your organization generated through the API. Available files can be downloaded until they expire.',
    file: 'File',
    kind: 'Kind',
    key: 'Key',
    status: 'Status',
    rows: 'Rows',
    created: 'Created',
    expires: 'Expires',
    download: 'Download',
    none: 'No file yet. Files generated with POST /v1/files/generate appear here.',
    status_processing: 'Processing',
    status_available: 'Available',
    status_not_stored: 'Not stored',
    status_expired: 'Expired',
    status_failed: 'Failed',
    inTime: (t: string) => `in ${t}`,
    expired: 'expired',
    previous: '← Newer',
    next: 'Older →',
    pageOf: (page: number, pages: number, total: string) => `Page ${page} of ${pages} · ${total} files`,
    notAvailable: 'This file cannot be downloaded.',
    notStored: 'This file was generated with store: false: only its metadata was kept.',
    processing: 'This file is still being generated. Try again in a few seconds.',
    failed: 'The generation of this file failed; nothing was kept.',
    expiredText: 'This file has expired and was deleted.',
    back: 'Back to the files',
  },
  tryIt: {
    title: 'Try it',
    intro: `Check a CSV file as the API does (POST /v1/files/validate), with a test key’s limits: at most ${TEST_ROWS} rows. Nothing is stored or counted; the file stays in memory while it is checked.`,
    drop: 'Drop a CSV file here',
    or: 'or',
    choose: 'choose a file',
    chosen: 'Chosen file:',
    type: 'File type',
    typeAdf: 'ADF — attestation de formation',
    typeJdr: 'JDR — justificatif de réussite',
    declarant: 'Declarant',
    declarantEmployer: 'Employer',
    declarantOf: 'Training organization',
    strict: 'Unknown reference codes are errors (strict references)',
    submit: 'Check the file',
    checking: 'Checking…',
    noFile: 'Choose a CSV file to check.',
    tooLarge: (mb: number) =>
      `The file is over ${mb} MB. Try it checks small files (${TEST_ROWS} rows); send larger ones to the API.`,
    tooManyRows: (limit: number, rows: string) =>
      `The file has ${rows} rows; Try it checks at most ${limit} (a test key’s limit). Send it to the API with a live key.`,
    throttled: (s: number) => `Too many checks this minute. Try again in ${s} s.`,
    result: 'Result',
    valid: 'The file is valid.',
    validNote:
      'The portal can still refuse rows only it can check (an ID already used, a NIR and birth name it does not know, a SIRET that does not exist).',
    invalid: 'The file has errors.',
    rejected: 'The file was rejected as a whole.',
    rowsTotal: 'Rows',
    rowsValid: 'Valid rows',
    rowsInvalid: 'Invalid rows',
    errors: 'Errors',
    warnings: 'Warnings',
    truncated: (n: string) => `Only the first ${n} errors are listed; the counts include them all.`,
    byCode: 'By code',
    byColumn: 'By column',
    code: 'Code',
    column: 'Column',
    count: 'Count',
    rows: 'Rows',
    example: 'Message (first occurrence)',
    fileLevel: '(whole file)',
    rowNote:
      'Rows are lines of the file, as the portal counts them: the header is line 1, the first data row line 2.',
    allErrors: 'Every error',
    row: 'Row',
    message: 'Message',
    downloadReport: 'Download the error report (CSV)',
    moreRows: (n: string) => `and ${n} more`,
    again: 'Check another file',
  },
  account: {
    title: 'Account',
    email: 'E-mail address',
    organization: 'Organization',
    plan: 'Plan',
    memberSince: 'Member since',
    people: 'People with access',
    you: 'you',
    invited: 'invitation pending',
    peopleHelp: 'Your ppfile operator adds people with the command',
    changePassword: 'Change password',
    current: 'Current password',
    wrongCurrent: 'The current password is wrong.',
    changeSubmit: 'Change password',
    changed: 'Your password was changed. Your other sessions were signed out.',
    everywhere: 'Sign out everywhere',
    everywhereText: 'Ends every session of your account, on every device, including this one.',
    everywhereSubmit: 'Sign out everywhere',
  },
  errors: {
    notFoundTitle: 'Page not found',
    notFound: 'There is nothing here, or it belongs to another organization.',
    forbiddenTitle: 'Request refused',
    forbidden: 'This form was out of date or sent from another site. Reload the page and try again.',
    unavailableTitle: 'Temporarily unavailable',
    unavailable: 'A service the dashboard needs is unavailable. Nothing was changed. Try again in a minute.',
    internalTitle: 'Something went wrong',
    internal: 'An unexpected error occurred. Nothing was changed.',
    tooLargeTitle: 'Too large',
    tooLarge: 'The form sent was too large.',
    home: 'Back to the dashboard',
  },
  time: {
    ago: (t: string) => `${t} ago`,
    justNow: 'just now',
  },
  plans: { free: 'Free', starter: 'Starter', pro: 'Pro', business: 'Business' },
  modes: { live: 'Live', test: 'Test' },
};

export type Messages = typeof EN;

const FR: Messages = {
  htmlLang: 'fr',
  skip: 'Aller au contenu',
  brandSub: 'tableau de bord',
  nav: {
    usage: 'Consommation',
    keys: 'Clés d’API',
    files: 'Fichiers',
    try: 'Essayer',
    account: 'Compte',
    signOut: 'Se déconnecter',
    docs: 'Doc. de l’API',
  },
  langSwitch: 'Langue',
  footer:
    'ppfile prépare et vérifie des fichiers pour le portail Passeport de Prévention. Il ne dépose jamais rien sur le portail.',
  signIn: {
    title: 'Connexion',
    intro: 'Connectez-vous pour gérer les clés d’API, la consommation et les fichiers de votre organisation.',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    submit: 'Se connecter',
    wrong: 'Adresse e-mail ou mot de passe incorrect.',
    throttled: (minutes: number) =>
      `Trop de tentatives de connexion échouées. Réessayez dans ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    signedOut: 'Vous êtes déconnecté.',
    expired: 'Votre session a pris fin. Reconnectez-vous pour continuer.',
    passwordChanged: 'Votre mot de passe a été changé. Reconnectez-vous sur vos autres appareils.',
    noAccount:
      'Pas encore de compte\u00a0? Votre opérateur ppfile en crée un et vous envoie un lien d’invitation.',
  },
  invite: {
    title: 'Choisissez votre mot de passe',
    intro: (org: string) =>
      `Vous êtes invité au tableau de bord de ${org}. Choisissez un mot de passe pour terminer.`,
    invalidTitle: 'Lien d’invitation non valable',
    invalid:
      'Ce lien d’invitation est inconnu, a déjà servi ou a expiré. Demandez-en un nouveau à votre opérateur ppfile.',
    submit: 'Enregistrer et se connecter',
  },
  password: {
    new: 'Nouveau mot de passe',
    confirm: 'Répétez le nouveau mot de passe',
    hint: (min: number) =>
      `Au moins ${min} caractères, pas un mot de passe courant. Une phrase de plusieurs mots se retient facilement.`,
    too_short: (min: number) => `Le mot de passe doit compter au moins ${min} caractères.`,
    too_long: (max: number) => `Le mot de passe peut compter au plus ${max} caractères.`,
    blank: 'Le mot de passe ne peut pas être fait que d’espaces.',
    contains_email: 'Le mot de passe ne peut pas contenir votre adresse e-mail ni sa partie avant le @.',
    repeated:
      'Le mot de passe répète un caractère ou un court motif (comme aaaa… ou abcabc…). Choisissez-en un plus difficile à deviner.',
    sequence:
      'Le mot de passe est une suite (comme 123456…, abcdef… ou une rangée du clavier comme azerty…). Choisissez-en un plus difficile à deviner.',
    common:
      'Ce mot de passe est l’un des plus courants, que les attaquants essaient en premier (avec ou sans chiffres à la fin). Choisissez-en un autre, par exemple une phrase de plusieurs mots.',
    mismatch: 'Les deux mots de passe diffèrent.',
  },
  usage: {
    title: 'Consommation',
    welcome: 'Bienvenue\u00a0! Votre mot de passe est enregistré. Créez une clé de test pour essayer l’API.',
    thisMonth: 'Ce mois-ci',
    unitsOf: (used: string, limit: string) => `${used} unités sur ${limit}`,
    percentUsed: (p: string) => `${p} consommés`,
    reserved: (n: string) => `${n} réservées pour des traitements en cours`,
    resets: (date: string) => `Remise à zéro le ${date} (00 h 00 UTC).`,
    unitHelp:
      'Une unité est une ligne d’un fichier généré ou validé avec une clé live. Les clés de test sont gratuites.',
    plan: 'Offre',
    planQuota: (n: string) => `${n} unités par mois`,
    perMinute: 'Requêtes par minute',
    perMinuteHelp: 'par clé et par organisation',
    testRows: 'Lignes de test ce mois-ci',
    testRowsHelp: (limit: string) => `sur ${limit} permises aux clés de test`,
    history: '12 derniers mois',
    historyAria: (summary: string) => `Unités consommées par mois sur les 12 derniers mois\u00a0: ${summary}`,
    quotaLine: (limit: string) => `Quota mensuel\u00a0: ${limit}`,
    quotaAbove: (limit: string) => `Quota mensuel\u00a0: ${limit} (au-dessus de cette échelle)`,
    showTable: 'Afficher en tableau',
    month: 'Mois',
    units: 'Unités',
    testRowsColumn: 'Lignes de test',
    getStarted: 'Pour commencer',
    getStartedText: `Créez une clé de test, puis appelez l’API. Les clés de test sont gratuites et limitées à ${TEST_ROWS} lignes par requête.`,
    createKey: 'Créer une clé',
    recentFiles: 'Fichiers récents',
    allFiles: 'Tous les fichiers',
    noFiles: 'Aucun fichier pour l’instant.',
  },
  keys: {
    title: 'Clés d’API',
    introBefore: 'Les programmes appellent l’API avec une clé dans l’en-tête',
    introHeader: 'Authorization: Bearer <clé>',
    introAfter: `Les clés de test sont gratuites (${TEST_ROWS} lignes par requête)\u00a0; les clés live consomment des unités de votre quota.`,
    name: 'Nom',
    mode: 'Mode',
    prefix: 'Clé',
    created: 'Créée',
    lastUsed: 'Dernière utilisation',
    status: 'État',
    never: 'jamais',
    active: 'Active',
    revokedOn: (date: string) => `Révoquée le ${date}`,
    revoke: 'Révoquer…',
    none: 'Aucune clé pour l’instant.',
    unnamed: '(sans nom)',
    createTitle: 'Créer une clé',
    nameLabel: 'Nom (facultatif)',
    namePlaceholder: 'p. ex. export paie',
    modeTest: 'Test',
    modeTestHelp: `gratuite, ${TEST_ROWS} lignes par requête, pour essayer`,
    modeLive: 'Live',
    modeLiveHelp: 'consomme des unités de votre quota mensuel',
    createSubmit: 'Créer la clé',
    createdTitle: 'Votre nouvelle clé',
    createdWarning:
      'Copiez cette clé maintenant\u00a0: elle n’est affichée qu’une fois. ppfile n’en garde qu’une empreinte et ne peut pas la réafficher.',
    copy: 'Copier',
    copied: 'Copiée',
    done: 'Je l’ai enregistrée — retour aux clés',
    example: 'Pour essayer\u00a0:',
    revokeTitle: 'Révoquer cette clé\u00a0?',
    revokeText:
      'Les programmes qui utilisent cette clé seront refusés (401) d’ici quelques secondes. C’est définitif\u00a0; créez une nouvelle clé pour la remplacer.',
    revokeConfirm: (name: string) =>
      `Révoquer la clé ${name}\u00a0? Les programmes qui l’utilisent seront refusés. C’est définitif.`,
    revokeSubmit: 'Révoquer la clé',
    cancel: 'Annuler',
    revoked: (name: string) => `La clé ${name} a été révoquée.`,
    alreadyRevoked: 'Cette clé est déjà révoquée.',
    nameTooLong: (max: number) => `Le nom peut compter au plus ${max} caractères.`,
    modeRequired: 'Choisissez test ou live.',
  },
  files: {
    title: 'Fichiers',
    intro:
      'Les fichiers générés par votre organisation avec l’API. Les fichiers disponibles se téléchargent jusqu’à leur expiration.',
    file: 'Fichier',
    kind: 'Type',
    key: 'Clé',
    status: 'État',
    rows: 'Lignes',
    created: 'Créé',
    expires: 'Expire',
    download: 'Télécharger',
    none: 'Aucun fichier pour l’instant. Les fichiers générés avec POST /v1/files/generate apparaissent ici.',
    status_processing: 'En cours',
    status_available: 'Disponible',
    status_not_stored: 'Non conservé',
    status_expired: 'Expiré',
    status_failed: 'Échec',
    inTime: (t: string) => `dans ${t}`,
    expired: 'expiré',
    previous: '← Plus récents',
    next: 'Plus anciens →',
    pageOf: (page: number, pages: number, total: string) => `Page ${page} sur ${pages} · ${total} fichiers`,
    notAvailable: 'Ce fichier ne peut pas être téléchargé.',
    notStored: 'Ce fichier a été généré avec store: false\u00a0: seules ses métadonnées ont été gardées.',
    processing: 'Ce fichier est encore en cours de génération. Réessayez dans quelques secondes.',
    failed: 'La génération de ce fichier a échoué\u00a0; rien n’a été gardé.',
    expiredText: 'Ce fichier a expiré et a été supprimé.',
    back: 'Retour aux fichiers',
  },
  tryIt: {
    title: 'Essayer',
    intro: `Vérifiez un fichier CSV comme le fait l’API (POST /v1/files/validate), avec les limites d’une clé de test\u00a0: ${TEST_ROWS} lignes au plus. Rien n’est conservé ni compté\u00a0; le fichier reste en mémoire le temps de la vérification.`,
    drop: 'Déposez un fichier CSV ici',
    or: 'ou',
    choose: 'choisissez un fichier',
    chosen: 'Fichier choisi\u00a0:',
    type: 'Type de fichier',
    typeAdf: 'ADF — attestation de formation',
    typeJdr: 'JDR — justificatif de réussite',
    declarant: 'Déclarant',
    declarantEmployer: 'Employeur',
    declarantOf: 'Organisme de formation',
    strict: 'Les codes de référence inconnus sont des erreurs (références strictes)',
    submit: 'Vérifier le fichier',
    checking: 'Vérification…',
    noFile: 'Choisissez un fichier CSV à vérifier.',
    tooLarge: (mb: number) =>
      `Le fichier dépasse ${mb} Mo. Essayer vérifie de petits fichiers (${TEST_ROWS} lignes)\u00a0; envoyez les plus grands à l’API.`,
    tooManyRows: (limit: number, rows: string) =>
      `Le fichier compte ${rows} lignes\u00a0; Essayer en vérifie ${limit} au plus (la limite d’une clé de test). Envoyez-le à l’API avec une clé live.`,
    throttled: (s: number) => `Trop de vérifications cette minute. Réessayez dans ${s} s.`,
    result: 'Résultat',
    valid: 'Le fichier est valide.',
    validNote:
      'Le portail peut encore refuser des lignes que lui seul peut vérifier (un identifiant déjà utilisé, un couple NIR et nom de naissance inconnu, un SIRET inexistant).',
    invalid: 'Le fichier contient des erreurs.',
    rejected: 'Le fichier a été refusé dans son ensemble.',
    rowsTotal: 'Lignes',
    rowsValid: 'Lignes valides',
    rowsInvalid: 'Lignes invalides',
    errors: 'Erreurs',
    warnings: 'Avertissements',
    truncated: (n: string) =>
      `Seules les ${n} premières erreurs sont listées\u00a0; les totaux les comptent toutes.`,
    byCode: 'Par code',
    byColumn: 'Par colonne',
    code: 'Code',
    column: 'Colonne',
    count: 'Nombre',
    rows: 'Lignes',
    example: 'Message (première occurrence)',
    fileLevel: '(fichier entier)',
    rowNote:
      'Les lignes sont celles du fichier, comme le portail les compte\u00a0: l’en-tête est la ligne 1, la première donnée la ligne 2.',
    allErrors: 'Toutes les erreurs',
    row: 'Ligne',
    message: 'Message',
    downloadReport: 'Télécharger le rapport d’erreurs (CSV)',
    moreRows: (n: string) => `et ${n} de plus`,
    again: 'Vérifier un autre fichier',
  },
  account: {
    title: 'Compte',
    email: 'Adresse e-mail',
    organization: 'Organisation',
    plan: 'Offre',
    memberSince: 'Membre depuis',
    people: 'Personnes ayant accès',
    you: 'vous',
    invited: 'invitation en attente',
    peopleHelp: 'Votre opérateur ppfile ajoute des personnes avec la commande',
    changePassword: 'Changer de mot de passe',
    current: 'Mot de passe actuel',
    wrongCurrent: 'Le mot de passe actuel est incorrect.',
    changeSubmit: 'Changer le mot de passe',
    changed: 'Votre mot de passe a été changé. Vos autres sessions ont été fermées.',
    everywhere: 'Se déconnecter partout',
    everywhereText: 'Ferme toutes les sessions de votre compte, sur tous les appareils, y compris celui-ci.',
    everywhereSubmit: 'Se déconnecter partout',
  },
  errors: {
    notFoundTitle: 'Page introuvable',
    notFound: 'Il n’y a rien ici, ou cela appartient à une autre organisation.',
    forbiddenTitle: 'Requête refusée',
    forbidden: 'Ce formulaire n’était plus à jour ou venait d’un autre site. Rechargez la page et réessayez.',
    unavailableTitle: 'Indisponible pour l’instant',
    unavailable:
      'Un service dont le tableau de bord a besoin est indisponible. Rien n’a été modifié. Réessayez dans une minute.',
    internalTitle: 'Une erreur s’est produite',
    internal: 'Une erreur inattendue s’est produite. Rien n’a été modifié.',
    tooLargeTitle: 'Trop volumineux',
    tooLarge: 'Le formulaire envoyé était trop volumineux.',
    home: 'Retour au tableau de bord',
  },
  time: {
    ago: (t: string) => `il y a ${t}`,
    justNow: 'à l’instant',
  },
  plans: { free: 'Free', starter: 'Starter', pro: 'Pro', business: 'Business' },
  modes: { live: 'Live', test: 'Test' },
};

export const MESSAGES: Readonly<Record<Lang, Messages>> = { en: EN, fr: FR };

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
