/**
 * The Build page's words, English and French. The French is written as French users write it (not
 * word for word): non-breaking spaces before « : ; ? ! » and inside « », « Ligne » for a sheet row.
 */
export type Lang = 'en' | 'fr';

const nbsp = '\u00a0';

function count(lang: Lang, n: number, one: string, many: string): string {
  const text = n.toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB');
  // French singular covers 0 and 1 (« 0 erreur »), English only 1.
  return `${text} ${(lang === 'fr' ? n <= 1 : n === 1) ? one : many}`;
}

const EN = {
  /** A number as the page's language writes it (not the browser's locale). */
  number: (n: number) => n.toLocaleString('en-GB'),
  kindTitle: '1. What you are filing',
  type: 'File type',
  typeAdf: 'ADF — attestation de formation',
  typeJdr: 'JDR — justificatif de réussite',
  declarant: 'You file as',
  employer: 'Employer',
  trainingOrganization: 'Training organization',
  template: 'Download the empty template (XLSX)',
  templateHelp:
    'Row 1 holds the official column names, row 2 their labels; fill from row 3. Your own sheet works too.',
  strict: 'Unknown reference codes are errors (strict references)',
  strictHelp:
    'The API’s default. Unchecked, a code missing from the reference lists is only a warning. Changing it checks your data again.',
  savedMapping: (n: number) =>
    `Your organization’s saved mapping (${count('en', n, 'header', 'headers')}) is applied to this kind.`,

  fileTitle: '2. Your spreadsheet',
  privacy:
    'Your file is read and checked on this computer. Nothing of it is sent to ppfile until you press Generate.',
  drop: 'Drop an XLSX, CSV or TSV file here',
  or: 'or',
  choose: 'Choose a file',
  wrongFile: 'Choose an .xlsx, .csv, .tsv or .txt file.',
  reading: (name: string) => `Reading ${name}…`,
  checking: 'Checking…',
  cancel: 'Cancel',
  readSummary: (rows: number, declarations: number, sheet: string, headerRow: number) =>
    `${count('en', rows, 'row', 'rows')} read from sheet “${sheet}” (headers on row ${headerRow}), ${count('en', declarations, 'declaration', 'declarations')}.`,

  mappingTitle: '3. Columns',
  mappingIntro: 'Each header of your sheet and the official column it fills. Change one, then import again.',
  yourHeader: 'Your header',
  officialColumn: 'Official column',
  foundBy: 'Recognised by',
  how: {
    label: 'its label',
    name: 'its name',
    field: 'its JSON field',
    synonym: 'a synonym',
    given: 'your choice',
  },
  notRecognised: 'not recognised',
  mappingSummary: (used: number, ignored: number) =>
    `${count('en', used, 'header', 'headers')} used, ${count('en', ignored, 'ignored', 'ignored')}`,
  ignore: '— ignore this column —',
  missing: 'Required columns not found:',
  reimport: 'Import again with these columns',
  saveMapping: 'Save this mapping for my organization',
  mappingSaved: 'Mapping saved. It will be applied to your next files of this kind.',
  mappingNote: 'Only header texts and column names are saved, never the content of a cell.',

  problemsTitle: '4. Problems',
  counts: (errors: number, warnings: number) =>
    `${count('en', errors, 'error', 'errors')}, ${count('en', warnings, 'warning', 'warnings')}`,
  noErrors: 'No errors: the file can be generated.',
  byCode: 'By kind of problem',
  byColumn: 'By column',
  noColumn: 'Whole file or row',
  list: 'Every problem',
  filter: (what: string) => `Only: ${what}`,
  showAll: 'Show all',
  showMore: (n: number) => `Show ${n} more`,
  truncated: 'Only the first 1,000 errors are listed; the counts are exact.',
  row: (n: number) => `Row ${n}`,
  error: 'Error',
  warning: 'Warning',
  goTo: 'Show in the grid',

  gridTitle: '5. Your data',
  gridHelp:
    'Arrow keys move between cells, Enter or F2 edits a cell, Enter confirms and Escape cancels. Changes stay on this computer.',
  gridCaption: (rows: number) => `${count('en', rows, 'row', 'rows')}, one per holder`,
  rowHeader: 'Sheet row',
  sheetRow: (n: number) => `Sheet row ${n}`,
  sharedCell: (n: number) => `Declaration value, shared by its ${count('en', n, 'row', 'rows')}`,
  editLabel: (column: string, row: string) => `${column}, ${row.charAt(0).toLowerCase()}${row.slice(1)}`,
  empty: '(empty)',
  edited: 'You changed the data: check again to update the problems.',
  checkAgain: 'Check again',
  applyFixes: 'Apply safe fixes',
  fixesHelp:
    'Dates to dd/mm/yyyy, upper case of codes and choices, spaces, separators in NIR and SIRET: the safe normalizations only, never a value’s meaning.',
  fixesTitle: 'What the fixes changed',
  fixesDone: (n: number) => (n === 0 ? 'Nothing to fix.' : `${count('en', n, 'value', 'values')} fixed.`),
  before: 'Before',
  after: 'After',
  column: 'Column',

  generateTitle: '6. Generate the official file',
  generateHelp:
    'Generate sends the data to ppfile, which writes the portal’s file on behalf of your organization. It counts against your quota; the file then appears under Files.',
  blockedErrors: 'Correct the errors first.',
  blockedEdited: 'Check again after your changes first.',
  generate: 'Generate',
  generating: 'Generating…',
  processing: 'The file is being produced…',
  generated: (filename: string, rows: number) =>
    `${filename} is ready (${count('en', rows, 'row', 'rows')}).`,
  download: 'Download the file',
  seeFiles: 'See it under Files',
  serverErrors: 'ppfile found errors when generating; they are listed under Problems.',
  sessionEnded:
    'Your session ended, so the file was not generated. Your changes are kept: sign in again in a new tab, then press Retry.',
  signInNewTab: 'Sign in (opens a new tab)',
  retry: 'Retry',
  quotaExceeded: 'Your monthly quota is used up: no file can be generated until it is renewed or raised.',
  seeUsage: 'See Usage',
  rateLimited: (seconds: number) =>
    `Too many files generated in a short time: wait ${count('en', seconds, 'second', 'seconds')} before pressing Generate again.`,
  rateLimitOver: 'You can press Generate again.',
  tooLarge: 'The data is too large to be sent in one file: split it into several spreadsheets.',
  networkLost:
    'The connection to ppfile was lost: check your network, then press Generate again (it will not make a second file).',
  serverDown:
    'ppfile could not generate the file just now: try again in a few minutes (it will not make a second file).',
  httpStatus: (status: number) =>
    status === 401
      ? 'you are signed out.'
      : status === 403
        ? 'the request was refused.'
        : status === 404
          ? 'not found.'
          : status === 408 || status === 504
            ? 'the server took too long to answer.'
            : status === 413
              ? 'the data is too large.'
              : status === 429
                ? 'too many requests; wait a minute.'
                : status >= 500
                  ? 'ppfile is unavailable just now; try again in a few minutes.'
                  : `the server answered with status ${status}.`,
  stillProcessing:
    'The file is still being made. You can leave this page: it will appear under Files when it is ready.',

  discardEdits: 'Your changes to the data will be lost. Continue?',
  failed: (message: string) => `Something went wrong: ${message}`,
  readFailed: (message: string) => `The file could not be read: ${message}`,
  announceRead: (summary: string) => `File checked: ${summary}.`,
  announceChecked: (summary: string) => `Checked again: ${summary}.`,
};

export type Texts = typeof EN;

const FR: Texts = {
  number: (n: number) => n.toLocaleString('fr-FR'),
  kindTitle: '1. Ce que vous déclarez',
  type: 'Type de fichier',
  typeAdf: 'ADF — attestation de formation',
  typeJdr: 'JDR — justificatif de réussite',
  declarant: 'Vous déclarez en tant que',
  employer: 'Employeur',
  trainingOrganization: 'Organisme de formation',
  template: 'Télécharger le modèle vierge (XLSX)',
  templateHelp: `La ligne 1 contient les noms officiels des colonnes et la ligne 2 leurs libellés${nbsp}; commencez la saisie à la ligne 3. Vous pouvez aussi partir de votre propre tableur.`,
  strict: 'Traiter les codes de référence inconnus comme des erreurs (contrôle strict)',
  strictHelp: `C’est le réglage par défaut de l’API. Décoché, un code absent des listes de référence ne donne qu’un avertissement. Le modifier relance la vérification.`,
  savedMapping: (n: number) =>
    `La correspondance des colonnes enregistrée par votre organisation (${count('fr', n, 'en-tête', 'en-têtes')}) est appliquée à ce type de fichier.`,

  fileTitle: '2. Votre fichier',
  privacy: `Votre fichier est lu et vérifié sur cet ordinateur. Aucune donnée n’est envoyée à ppfile avant que vous cliquiez sur «${nbsp}Générer${nbsp}».`,
  drop: 'Glissez-déposez ici un fichier XLSX, CSV ou TSV',
  or: 'ou',
  choose: 'Choisir un fichier',
  wrongFile: 'Choisissez un fichier .xlsx, .csv, .tsv ou .txt.',
  reading: (name: string) => `Lecture de ${name}…`,
  checking: 'Vérification…',
  cancel: 'Annuler',
  readSummary: (rows: number, declarations: number, sheet: string, headerRow: number) =>
    `${count('fr', rows, 'ligne lue', 'lignes lues')} dans la feuille «${nbsp}${sheet}${nbsp}» (en-têtes à la ligne ${headerRow}), ${rows <= 1 ? 'soit' : 'réparties en'} ${count('fr', declarations, 'déclaration', 'déclarations')}.`,

  mappingTitle: '3. Correspondance des colonnes',
  mappingIntro: `Pour chaque en-tête de votre tableur, la colonne officielle qu’il renseigne. Modifiez une association si besoin, puis relancez l’import.`,
  yourHeader: 'Votre en-tête',
  officialColumn: 'Colonne officielle',
  foundBy: 'Reconnu par',
  how: {
    label: 'son libellé',
    name: 'son nom',
    field: 'son champ JSON',
    synonym: 'un synonyme',
    given: 'votre choix',
  },
  notRecognised: 'non reconnu',
  mappingSummary: (used: number, ignored: number) =>
    `${count('fr', used, 'en-tête utilisé', 'en-têtes utilisés')}, ${count('fr', ignored, 'ignoré', 'ignorés')}`,
  ignore: '— ignorer cette colonne —',
  missing: `Colonnes obligatoires absentes${nbsp}:`,
  reimport: 'Relancer l’import avec ces colonnes',
  saveMapping: 'Enregistrer cette correspondance pour mon organisation',
  mappingSaved: 'Correspondance enregistrée. Elle s’appliquera à vos prochains fichiers de ce type.',
  mappingNote:
    'Seuls les intitulés des en-têtes et les noms des colonnes sont enregistrés, jamais le contenu des cellules.',

  problemsTitle: '4. Anomalies',
  counts: (errors: number, warnings: number) =>
    `${count('fr', errors, 'erreur', 'erreurs')}, ${count('fr', warnings, 'avertissement', 'avertissements')}`,
  noErrors: `Aucune erreur${nbsp}: le fichier peut être généré.`,
  byCode: 'Par type d’anomalie',
  byColumn: 'Par colonne',
  noColumn: 'Fichier entier ou ligne entière',
  list: 'Liste détaillée',
  filter: (what: string) => `Filtre${nbsp}: ${what}`,
  showAll: 'Tout afficher',
  showMore: (n: number) => `Afficher les ${n} suivantes`,
  truncated: `Seules les 1${nbsp}000 premières erreurs sont listées${nbsp}; les totaux, eux, sont complets.`,
  row: (n: number) => `Ligne ${n}`,
  error: 'Erreur',
  warning: 'Avertissement',
  goTo: 'Voir dans le tableau',

  gridTitle: '5. Vos données',
  gridHelp: `Déplacez-vous avec les flèches${nbsp}; Entrée ou F2 pour modifier une cellule, Entrée pour valider, Échap pour annuler. Vos modifications restent sur cet ordinateur.`,
  gridCaption: (rows: number) => `${count('fr', rows, 'ligne', 'lignes')}, une par titulaire`,
  rowHeader: 'Ligne du tableur',
  sheetRow: (n: number) => `Ligne ${n} du tableur`,
  sharedCell: (n: number) => `Valeur de la déclaration, commune à ses ${count('fr', n, 'ligne', 'lignes')}`,
  editLabel: (column: string, row: string) => `${column}, ${row.charAt(0).toLowerCase()}${row.slice(1)}`,
  empty: '(vide)',
  edited: `Vous avez modifié les données${nbsp}: relancez la vérification pour mettre à jour les anomalies.`,
  checkAgain: 'Vérifier à nouveau',
  applyFixes: 'Appliquer les corrections sans risque',
  fixesHelp: `Dates remises au format jj/mm/aaaa, codes et choix en majuscules, espaces superflus et séparateurs des NIR et SIRET supprimés${nbsp}: uniquement des corrections de forme, qui ne changent jamais le sens d’une valeur.`,
  fixesTitle: 'Valeurs modifiées par les corrections',
  fixesDone: (n: number) =>
    n === 0 ? 'Rien à corriger.' : `${count('fr', n, 'valeur corrigée', 'valeurs corrigées')}.`,
  before: 'Avant',
  after: 'Après',
  column: 'Colonne',

  generateTitle: '6. Générer le fichier officiel',
  generateHelp: `«${nbsp}Générer${nbsp}» envoie les données à ppfile, qui établit le fichier à déposer sur le portail au nom de votre organisation. L’opération est décomptée de votre quota${nbsp}; le fichier apparaît ensuite dans la page Fichiers.`,
  blockedErrors: 'Corrigez d’abord les erreurs.',
  blockedEdited: `Vous avez modifié les données${nbsp}: relancez d’abord la vérification.`,
  generate: 'Générer',
  generating: 'Génération…',
  processing: 'Fichier en cours de création…',
  generated: (filename: string, rows: number) =>
    `${filename} est prêt (${count('fr', rows, 'ligne', 'lignes')}).`,
  download: 'Télécharger le fichier',
  seeFiles: 'Le retrouver dans Fichiers',
  serverErrors: `ppfile a détecté des erreurs lors de la génération${nbsp}; elles sont listées à l’étape «${nbsp}Anomalies${nbsp}».`,
  sessionEnded: `Votre session a expiré${nbsp}: le fichier n’a pas été généré. Vos modifications sont conservées${nbsp}: reconnectez-vous dans un nouvel onglet, puis cliquez sur «${nbsp}Réessayer${nbsp}».`,
  signInNewTab: 'Se reconnecter (nouvel onglet)',
  retry: 'Réessayer',
  quotaExceeded: `Votre quota mensuel est épuisé${nbsp}: aucun fichier ne peut être généré avant son renouvellement ou son augmentation.`,
  seeUsage: 'Voir la consommation',
  rateLimited: (seconds: number) =>
    `Trop de fichiers générés en peu de temps${nbsp}: patientez ${count('fr', seconds, 'seconde', 'secondes')} avant de cliquer de nouveau sur «${nbsp}Générer${nbsp}».`,
  rateLimitOver: `Vous pouvez de nouveau cliquer sur «${nbsp}Générer${nbsp}».`,
  tooLarge: `Les données sont trop volumineuses pour un seul fichier${nbsp}: répartissez-les sur plusieurs tableurs.`,
  networkLost: `La connexion à ppfile a été interrompue${nbsp}: vérifiez votre réseau, puis cliquez de nouveau sur «${nbsp}Générer${nbsp}» (aucun second fichier ne sera créé).`,
  serverDown: `ppfile n’a pas pu générer le fichier pour le moment${nbsp}: réessayez dans quelques minutes (aucun second fichier ne sera créé).`,
  httpStatus: (status: number) =>
    status === 401
      ? 'vous êtes déconnecté.'
      : status === 403
        ? 'la requête a été refusée.'
        : status === 404
          ? 'introuvable.'
          : status === 408 || status === 504
            ? 'le serveur a mis trop de temps à répondre.'
            : status === 413
              ? 'les données sont trop volumineuses.'
              : status === 429
                ? `trop de requêtes${nbsp}; patientez une minute.`
                : status >= 500
                  ? `ppfile est momentanément indisponible${nbsp}; réessayez dans quelques minutes.`
                  : `le serveur a répondu avec le statut ${status}.`,
  stillProcessing: `Le fichier est encore en cours de création. Vous pouvez quitter cette page${nbsp}: il apparaîtra dans la page Fichiers dès qu’il sera prêt.`,

  discardEdits: `Vos modifications des données seront perdues. Continuer${nbsp}?`,
  failed: (message: string) => `Une erreur s’est produite${nbsp}: ${message}`,
  readFailed: (message: string) => `Impossible de lire le fichier${nbsp}: ${message}`,
  announceRead: (summary: string) => `Fichier vérifié${nbsp}: ${summary}.`,
  announceChecked: (summary: string) => `Nouvelle vérification${nbsp}: ${summary}.`,
};

export function textsFor(lang: Lang): Texts {
  return lang === 'fr' ? FR : EN;
}
