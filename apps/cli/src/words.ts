import type { Lang, Localized } from '@ppfile/rules';

/**
 * The command line's own words, English and French: verdicts, counts, labels, usage errors, help.
 * The rules' messages (issues, request errors) come from libs/rules' catalogue; this one holds
 * only what the CLI writes around them, so that `--lang fr` leaves no English word of ours behind.
 * Type-only imports: `--version` and `--help` load this file and nothing heavy.
 */

/** An entry: libs/rules' `Localized`, the one shape of ppfile's catalogues, of a template. */
type Entry<P> = Localized<(p: P) => string>;

const entry = <P>(en: (p: P) => string, fr: (p: P) => string): Entry<P> => ({ en, fr });
const fixed = (en: string, fr: string): Entry<void> => ({ en: () => en, fr: () => fr });

type N = { n: number };

const WORDS = {
  // ---- verdicts and counts of the file commands
  valid: fixed('valid', 'valide'),
  invalid: fixed('invalid', 'invalide'),
  rejected: fixed(
    'REJECTED (the portal would refuse the whole file)',
    'REJETÉ (le portail refuserait tout le fichier)',
  ),
  verdict: entry<{ subject: string; verdict: string }>(
    (p) => `${p.subject}: ${p.verdict}`,
    (p) => `${p.subject} : ${p.verdict}`,
  ),
  stdin: fixed('stdin', 'entrée standard'),
  stdout: fixed('stdout', 'sortie standard'),
  file_counts: entry<{
    total: number;
    valid: number;
    invalid: number;
    errors: number;
    warnings: number;
    spec: string;
  }>(
    (p) =>
      `rows: ${p.total} total, ${p.valid} valid, ${p.invalid} invalid; ${p.errors} error(s), ${p.warnings} warning(s) (spec ${p.spec})`,
    (p) =>
      `lignes : ${p.total} au total, ${p.valid} valide(s), ${p.invalid} invalide(s) ; ${p.errors} erreur(s), ${p.warnings} avertissement(s) (format ${p.spec})`,
  ),
  body_counts: entry<{
    total: number;
    valid: number;
    invalid: number;
    errors: number;
    warnings: number;
    normalizations: number;
    spec: string;
  }>(
    (p) =>
      `rows: ${p.total} total, ${p.valid} valid, ${p.invalid} invalid; ${p.errors} error(s), ${p.warnings} warning(s), ${p.normalizations} normalization(s) (spec ${p.spec})`,
    (p) =>
      `lignes : ${p.total} au total, ${p.valid} valide(s), ${p.invalid} invalide(s) ; ${p.errors} erreur(s), ${p.warnings} avertissement(s), ${p.normalizations} normalisation(s) (format ${p.spec})`,
  ),
  generated: entry<{ target: string; rows: number; declarations: number; sha256: string; filename: string }>(
    (p) =>
      `${p.target}: ${p.rows} row(s), ${p.declarations} declaration(s), sha256 ${p.sha256}, suggested name ${p.filename}`,
    (p) =>
      `${p.target} : ${p.rows} ligne(s), ${p.declarations} déclaration(s), sha256 ${p.sha256}, nom suggéré ${p.filename}`,
  ),
  /** The two labels are padded to the same width per language, so that the lines align. */
  label_error: fixed('error  ', 'erreur       '),
  label_warning: fixed('warning', 'avertissement'),
  issue: entry<{ label: string; row: string; where: string; code: string; message: string }>(
    (p) => `${p.label} line ${p.row}${p.where}: ${p.code} — ${p.message}`,
    (p) => `${p.label} ligne ${p.row}${p.where} : ${p.code} — ${p.message}`,
  ),
  normalized: entry<{ field: string; column: string; rule: string }>(
    (p) => `normalized ${p.field} (${p.column}): ${p.rule}`,
    (p) => `normalisé ${p.field} (${p.column}) : ${p.rule}`,
  ),
  more_errors: entry<N>(
    (p) => `… ${p.n} more error(s) not shown`,
    (p) => `… ${p.n} erreur(s) de plus non affichée(s)`,
  ),
  more_warnings: entry<N>(
    (p) => `… ${p.n} more warning(s) not shown`,
    (p) => `… ${p.n} avertissement(s) de plus non affiché(s)`,
  ),
  more_normalizations: entry<N>(
    (p) => `… ${p.n} more normalization(s) not shown`,
    (p) => `… ${p.n} normalisation(s) de plus non affichée(s)`,
  ),
  progress: entry<N>(
    (p) => `${p.n} lines read…`,
    (p) => `${p.n} lignes lues…`,
  ),
  request_error: entry<{ code: string; message: string }>(
    (p) => `${p.code}: ${p.message}`,
    (p) => `${p.code} : ${p.message}`,
  ),
  field_problem: entry<{ field: string; message: string }>(
    (p) => `${p.field}: ${p.message}`,
    (p) => `${p.field} : ${p.message}`,
  ),
  // ---- spreadsheets: template, import, fix (API.md §14)
  template_written: entry<{ target: string; filename: string; bytes: number }>(
    (p) => `${p.target}: template written (${p.bytes} bytes; the API names it ${p.filename})`,
    (p) => `${p.target} : modèle écrit (${p.bytes} octets ; l’API le nomme ${p.filename})`,
  ),
  imported_sheet: entry<{
    subject: string;
    sheet: string;
    header: number;
    rows: number;
    declarations: number;
  }>(
    (p) =>
      `${p.subject}: sheet ${p.sheet}, header row ${p.header}, ${p.rows} row(s) read, ${p.declarations} declaration(s)`,
    (p) =>
      `${p.subject} : feuille ${p.sheet}, ligne d’en-tête ${p.header}, ${p.rows} ligne(s) lue(s), ${p.declarations} déclaration(s)`,
  ),
  mapped_header: entry<{ cell: string; header: string; column: string; how: string }>(
    (p) => `${p.cell} "${p.header}" → ${p.column} (${p.how})`,
    (p) => `${p.cell} « ${p.header} » → ${p.column} (${p.how})`,
  ),
  unmapped_headers: entry<{ headers: string }>(
    (p) => `headers ignored: ${p.headers}`,
    (p) => `en-têtes ignorés : ${p.headers}`,
  ),
  missing_columns: entry<{ columns: string }>(
    (p) => `required columns without a header: ${p.columns}`,
    (p) => `colonnes obligatoires sans en-tête : ${p.columns}`,
  ),
  label_issue: fixed('cell   ', 'cellule      '),
  cell_issue: entry<{ label: string; cell: string; column: string; code: string; message: string }>(
    (p) => `${p.label} ${p.cell} ${p.column}: ${p.code} — ${p.message}`,
    (p) => `${p.label} ${p.cell} ${p.column} : ${p.code} — ${p.message}`,
  ),
  more_issues: entry<N>(
    (p) => `… ${p.n} more cell issue(s) not shown`,
    (p) => `… ${p.n} problème(s) de cellule de plus non affiché(s)`,
  ),
  fixed_file: entry<{ target: string; changes: number }>(
    (p) => `${p.target}: ${p.changes} change(s)`,
    (p) => `${p.target} : ${p.changes} modification(s)`,
  ),
  not_fixed: fixed(
    'not fixed: the file is refused as a whole (its header, its column count or its encoding), which fixing cannot mend; the error below says why',
    'non corrigé : le fichier est refusé en entier (son en-tête, son nombre de colonnes ou son encodage), ce qu’une correction ne peut réparer ; l’erreur ci-dessous dit pourquoi',
  ),
  change: entry<{ row: string; column: string; rule: string }>(
    (p) => `changed line ${p.row}${p.column}: ${p.rule}`,
    (p) => `modifié ligne ${p.row}${p.column} : ${p.rule}`,
  ),
  more_changes: entry<N>(
    (p) => `… ${p.n} more change(s) not shown`,
    (p) => `… ${p.n} modification(s) de plus non affichée(s)`,
  ),
  output_needs_generate: fixed(
    'import writes a CSV only with --generate: -o goes with it',
    'import n’écrit un CSV qu’avec --generate : -o va avec',
  ),

  /** LINE_LIMIT_EXCEEDED offline: the limit is the caller's --max-rows, not a key's. */
  max_rows_exceeded: entry<{ limit: number }>(
    (p) => `The request holds more than ${p.limit} rows, the limit given by --max-rows.`,
    (p) => `La requête contient plus de ${p.limit} lignes, la limite fixée par --max-rows.`,
  ),

  // ---- refdata import
  imported: entry<{
    count: number;
    list: string;
    file: string;
    complete: boolean;
    source: string;
    version: string;
    skipped: number;
  }>(
    (p) =>
      `Imported ${p.count} ${p.list} code(s) into ${p.file} (${p.complete ? 'complete' : 'partial'}; source ${p.source}, version ${p.version}; ${p.skipped} row(s) skipped)`,
    (p) =>
      `${p.count} code(s) ${p.list} importé(s) dans ${p.file} (liste ${p.complete ? 'complète' : 'partielle'} ; source ${p.source}, version ${p.version} ; ${p.skipped} ligne(s) ignorée(s))`,
  ),

  // ---- admin
  key_created: entry<{ id: string; mode: string; prefix: string }>(
    (p) => `${p.id} (${p.mode}, ${p.prefix}…): shown once, store it now; only its hash is kept.`,
    (p) =>
      `${p.id} (${p.mode}, ${p.prefix}…) : affichée une seule fois, conservez-la maintenant ; seule son empreinte est gardée.`,
  ),
  key_revoked: entry<{ id: string; at: string }>(
    (p) => `${p.id} revoked at ${p.at}`,
    (p) => `${p.id} révoquée le ${p.at}`,
  ),
  user_invited: entry<{ id: string; email: string; until: string }>(
    (p) =>
      `${p.id} (${p.email}): send this link to the person; it works once, until ${p.until}, to set their password.`,
    (p) =>
      `${p.id} (${p.email}) : envoyez ce lien à la personne ; il sert une fois, jusqu'au ${p.until}, à choisir son mot de passe.`,
  ),
  user_removed: entry<{ id: string; email: string }>(
    (p) => `${p.id} (${p.email}) removed; their sessions have ended.`,
    (p) => `${p.id} (${p.email}) retiré(e) ; ses sessions ont pris fin.`,
  ),
  usage_month: entry<{ month: string; used: number; limit: number; reserved: number; testRows: number }>(
    (p) =>
      `${p.month}: ${p.used} of ${p.limit} units used` +
      (p.reserved ? ` (${p.reserved} reserved for work in progress)` : '') +
      (p.testRows ? `; ${p.testRows} rows generated with test keys` : ''),
    (p) =>
      `${p.month} : ${p.used} unités utilisées sur ${p.limit}` +
      (p.reserved ? ` (dont ${p.reserved} réservées pour un travail en cours)` : '') +
      (p.testRows ? ` ; ${p.testRows} lignes générées avec des clés de test` : ''),
  ),
  reconcile_ok: fixed('reconcile: every invariant holds', 'reconcile : tous les invariants sont respectés'),
  legacy_drained: entry<{ moved: number; dropped: number; schedulers: number }>(
    (p) =>
      `queue "ppfile" drained: ${p.moved} generation(s) moved to "generate", ${p.dropped} other job(s) dropped, ${p.schedulers} scheduler(s) removed`,
    (p) =>
      `file « ppfile » vidée : ${p.moved} génération(s) déplacée(s) vers « generate », ${p.dropped} autre(s) tâche(s) abandonnée(s), ${p.schedulers} planification(s) retirée(s)`,
  ),
  db_up_to_date: entry<{ url: string; n: number }>(
    (p) => `${p.url} is up to date (${p.n} migration(s) applied)`,
    (p) => `${p.url} est à jour (${p.n} migration(s) appliquée(s))`,
  ),
  col_id: fixed('ID', 'ID'),
  col_name: fixed('NAME', 'NOM'),
  col_plan: fixed('PLAN', 'OFFRE'),
  col_created: fixed('CREATED', 'CRÉÉE'),
  col_mode: fixed('MODE', 'MODE'),
  col_prefix: fixed('PREFIX', 'PRÉFIXE'),
  col_last_used: fixed('LAST USED', 'DERNIER USAGE'),
  col_revoked: fixed('REVOKED', 'RÉVOQUÉE'),
  no_organization: fixed('no organization', 'aucune organisation'),
  no_key: entry<{ org: string }>(
    (p) => `no API key for ${p.org}`,
    (p) => `aucune clé d'API pour ${p.org}`,
  ),

  // ---- usage and I/O errors (one line on stderr, exit 2)
  error_line: entry<{ command: string; message: string }>(
    (p) => `${p.command}: ${p.message}`,
    (p) => `${p.command} : ${p.message}`,
  ),
  unknown_command: entry<{ name: string }>(
    (p) => `unknown command "${p.name}"`,
    (p) => `commande inconnue « ${p.name} »`,
  ),
  unknown_option: entry<{ option: string }>(
    (p) => `unknown option ${p.option}`,
    (p) => `option inconnue ${p.option}`,
  ),
  needs_value: entry<{ option: string; value: string }>(
    (p) => `${p.option} needs a value (${p.option} ${p.value})`,
    (p) => `${p.option} attend une valeur (${p.option} ${p.value})`,
  ),
  takes_no_value: entry<{ option: string }>(
    (p) => `${p.option} takes no value`,
    (p) => `${p.option} ne prend pas de valeur`,
  ),
  expects_one_of: entry<{ option: string; values: string }>(
    (p) => `--${p.option} expects ${p.values}`,
    (p) => `--${p.option} attend ${p.values}`,
  ),
  expects_date: fixed('--today expects a date YYYY-MM-DD', '--today attend une date AAAA-MM-JJ'),
  expects_lang: fixed('--lang expects en or fr', '--lang attend en ou fr'),
  expects_max_rows: fixed(
    '--max-rows expects a whole number of rows, at least 1',
    '--max-rows attend un nombre entier de lignes, au moins 1',
  ),
  expects_month: fixed('--month expects YYYY-MM', '--month attend AAAA-MM'),
  expects_email: fixed('--email expects an e-mail address', '--email attend une adresse électronique'),
  required: entry<{ option: string }>(
    (p) => `--${p.option} is required`,
    (p) => `--${p.option} est obligatoire`,
  ),
  one_operand: entry<{ operand: string }>(
    (p) => `expected exactly one ${p.operand}`,
    (p) => `un seul ${p.operand} attendu`,
  ),
  operands_needed: entry<{ operand: string }>(
    (p) => `expected at least one ${p.operand}`,
    (p) => `au moins un ${p.operand} attendu`,
  ),
  unexpected_operand: entry<{ value: string }>(
    (p) => `unexpected argument "${p.value}"`,
    (p) => `argument inattendu « ${p.value} »`,
  ),
  cannot_read: entry<{ file: string; reason: string }>(
    (p) => `cannot read ${p.file}: ${p.reason}`,
    (p) => `impossible de lire ${p.file} : ${p.reason}`,
  ),
  cannot_write: entry<{ file: string; reason: string }>(
    (p) => `cannot write ${p.file}: ${p.reason}`,
    (p) => `impossible d'écrire ${p.file} : ${p.reason}`,
  ),
  /** A problem libs/refdata reports in English (its messages name files and lists). */
  reference_data: entry<{ detail: string }>(
    (p) => p.detail,
    (p) => `listes de référence inutilisables (${p.detail})`,
  ),
  /** A refused import, as libs/refdata words it (in English: it names files, lists and rows). */
  import_failed: entry<{ detail: string }>(
    (p) => p.detail,
    (p) => `import impossible (${p.detail})`,
  ),
  reconcile_check_only: fixed(
    'admin reconcile only checks for now: pass --check (the workers repair by themselves)',
    'admin reconcile ne fait que vérifier pour l’instant : ajoutez --check (les workers réparent d’eux-mêmes)',
  ),
  unknown_organization: entry<{ id: string }>(
    (p) => `unknown organization "${p.id}"`,
    (p) => `organisation inconnue « ${p.id} »`,
  ),
  unknown_key: entry<{ id: string }>(
    (p) => `unknown API key "${p.id}"`,
    (p) => `clé d'API inconnue « ${p.id} »`,
  ),
  unknown_user: entry<{ email: string }>(
    (p) => `unknown user "${p.email}"`,
    (p) => `utilisateur inconnu « ${p.email} »`,
  ),
  duplicate_user: fixed(
    'a user with this e-mail address already exists',
    'un utilisateur avec cette adresse électronique existe déjà',
  ),
  redis_unreachable: entry<{ url: string }>(
    (p) => `cannot reach Redis at ${p.url} (is it running? check REDIS_URL)`,
    (p) => `impossible de joindre Redis ${p.url} (tourne-t-il ? vérifiez REDIS_URL)`,
  ),
  db_unreachable: entry<{ url: string }>(
    (p) => `cannot reach the database at ${p.url} (is PostgreSQL running? check DATABASE_URL)`,
    (p) =>
      `impossible de joindre la base de données ${p.url} (PostgreSQL tourne-t-il ? vérifiez DATABASE_URL)`,
  ),
  db_missing: entry<{ url: string }>(
    (p) => `the database at ${p.url} does not exist (run \`npm run db:migrate\`)`,
    (p) => `la base de données ${p.url} n'existe pas (lancez \`npm run db:migrate\`)`,
  ),
  db_not_migrated: entry<{ url: string }>(
    (p) => `the database at ${p.url} is not migrated (run \`npm run db:migrate\`)`,
    (p) => `la base de données ${p.url} n'est pas migrée (lancez \`npm run db:migrate\`)`,
  ),
  db_access_denied: entry<{ url: string }>(
    (p) => `the database at ${p.url} refused the credentials of DATABASE_URL`,
    (p) => `la base de données ${p.url} a refusé les identifiants de DATABASE_URL`,
  ),
  /** Failures the libraries describe in English only (migrations, environment, checks). */
  failed: entry<{ detail: string }>(
    (p) => p.detail,
    (p) => `échec : ${p.detail}`,
  ),
  unexpected_error: entry<{ detail: string }>(
    (p) => `unexpected error: ${p.detail}`,
    (p) => `erreur inattendue : ${p.detail}`,
  ),

  // ---- help
  title: fixed(
    'ppfile — official Passeport de Prévention bulk-import files, offline',
    "ppfile — fichiers d'import en masse officiels du Passeport de Prévention, hors ligne",
  ),
  usage: fixed('usage:', 'utilisation :'),
  help_hint: entry<{ command: string }>(
    (p) => `\`${p.command} COMMAND --help\` describes a command.`,
    (p) => `\`${p.command} COMMANDE --help\` décrit une commande.`,
  ),
  notes: fixed(
    [
      'FILE.csv or BODY.json "-" reads standard input. --lang fr prints the output in French.',
      '`ppfile --version` prints the version; `ppfile COMMAND --help` describes a command.',
      'Exit status: 0 valid / generated, 1 invalid, 2 usage or I/O error.',
      'PPFILE_REFERENCE_DATA points at another reference-data directory.',
      'admin commands use DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/ppfile).',
    ].join('\n'),
    [
      'FILE.csv ou BODY.json « - » lit l’entrée standard. --lang fr écrit la sortie en français.',
      '`ppfile --version` affiche la version ; `ppfile COMMANDE --help` décrit une commande.',
      'Code de sortie : 0 valide / généré, 1 invalide, 2 erreur d’utilisation ou de lecture-écriture.',
      'PPFILE_REFERENCE_DATA désigne un autre répertoire de listes de référence.',
      'Les commandes admin utilisent DATABASE_URL (par défaut postgresql://postgres@127.0.0.1:5432/ppfile).',
    ].join('\n'),
  ),

  sum_validate: fixed(
    'Checks an official CSV file as POST /v1/files/validate does, streaming it: any number of rows.',
    'Vérifie un fichier CSV officiel comme POST /v1/files/validate, en flux : autant de lignes que voulu.',
  ),
  sum_check: fixed(
    'Checks a JSON request body as POST /v1/declarations/validate does.',
    'Vérifie un corps de requête JSON comme POST /v1/declarations/validate.',
  ),
  sum_generate: fixed(
    'Produces the official CSV of a JSON request body, as POST /v1/files/generate with store: false.',
    'Produit le CSV officiel d’un corps de requête JSON, comme POST /v1/files/generate avec store: false.',
  ),
  sum_template: fixed(
    'Writes the XLSX template of a kind of file (GET /v1/spec/{version}/template).',
    'Écrit le modèle XLSX d’un type de fichier (GET /v1/spec/{version}/template).',
  ),
  sum_import: fixed(
    'Reads a spreadsheet (XLSX, CSV, TSV) into a JSON request body, as POST /v1/declarations/import; --generate goes on to the official CSV.',
    'Lit un tableur (XLSX, CSV, TSV) en un corps de requête JSON, comme POST /v1/declarations/import ; --generate va jusqu’au CSV officiel.',
  ),
  sum_fix: fixed(
    'Applies the normalizations to an official CSV and lists each change, as POST /v1/files/fix.',
    'Applique les normalisations à un CSV officiel et liste chaque modification, comme POST /v1/files/fix.',
  ),
  sum_refdata: fixed('Official reference lists.', 'Listes de référence officielles.'),
  sum_refdata_import: fixed(
    'Imports an official export into a reference list (complete unless --partial).',
    'Importe un export officiel dans une liste de référence (complète sauf avec --partial).',
  ),
  sum_admin: fixed("Operators' commands over DATABASE_URL.", 'Commandes des opérateurs, sur DATABASE_URL.'),
  sum_admin_org: fixed('Organizations.', 'Organisations.'),
  sum_admin_org_create: fixed(
    'Creates an organization and prints its id.',
    'Crée une organisation et affiche son identifiant.',
  ),
  sum_admin_org_list: fixed(
    'Lists the organizations: id, name, plan, creation time.',
    'Liste les organisations : identifiant, nom, offre, date de création.',
  ),
  sum_admin_key: fixed('API keys.', "Clés d'API."),
  sum_admin_key_create: fixed(
    'Creates an API key and prints it, once: only its hash is kept.',
    "Crée une clé d'API et l'affiche, une seule fois : seule son empreinte est gardée.",
  ),
  sum_admin_key_list: fixed(
    "Lists an organization's API keys by display prefix; never a key or its hash.",
    "Liste les clés d'API d'une organisation par préfixe d'affichage ; jamais une clé ni son empreinte.",
  ),
  sum_admin_key_revoke: fixed(
    'Revokes an API key (final, idempotent).',
    "Révoque une clé d'API (définitif, idempotent).",
  ),
  sum_admin_user: fixed(
    'People who sign in to the dashboard.',
    'Personnes qui se connectent au tableau de bord.',
  ),
  sum_admin_user_create: fixed(
    'Creates a person of an organization and prints a one-time dashboard invitation link.',
    "Crée une personne d'une organisation et affiche un lien d'invitation au tableau de bord, valable une fois.",
  ),
  sum_admin_user_reinvite: fixed(
    'Sends a person a new invitation link (a forgotten password, an expired link): their password, sessions and earlier link stop working.',
    "Donne à une personne un nouveau lien d'invitation (mot de passe oublié, lien expiré) : son mot de passe, ses sessions et l'ancien lien cessent de fonctionner.",
  ),
  sum_admin_user_remove: fixed(
    'Removes a person from the dashboard (someone who left): their sessions end at once.',
    'Retire une personne du tableau de bord (départ) : ses sessions prennent fin aussitôt.',
  ),
  sum_admin_usage: fixed(
    "Prints an organization's usage of a month.",
    "Affiche la consommation d'une organisation pour un mois.",
  ),
  sum_admin_reconcile: fixed(
    'Checks the invariants of accepted work (database and object store); exit 1 on a violation.',
    'Vérifie les invariants du travail accepté (base de données et stockage objet) ; code 1 si l’un est violé.',
  ),
  sum_admin_queue: fixed(
    'The queues, over REDIS_URL and QUEUE_PREFIX.',
    'Les files de tâches, sur REDIS_URL et QUEUE_PREFIX.',
  ),
  sum_admin_queue_drain_legacy: fixed(
    'Empties the one queue of versions before issue 20 (ppfile): its generations move to generate, the rest is dropped. Once, after the upgrade.',
    'Vide la file unique des versions antérieures à l’issue 20 (ppfile) : ses générations passent dans generate, le reste est abandonné. Une fois, après la mise à jour.',
  ),
  sum_admin_db: fixed('The database.', 'La base de données.'),
  sum_admin_db_migrate: fixed(
    'Applies prisma/migrations to DATABASE_URL, creating the database if needed.',
    'Applique prisma/migrations à DATABASE_URL, en créant la base si besoin.',
  ),

  arg_csv: fixed('the CSV file; - reads standard input', 'le fichier CSV ; - lit l’entrée standard'),
  arg_body: fixed(
    'the JSON request body; - reads standard input',
    'le corps de requête JSON ; - lit l’entrée standard',
  ),
  arg_sheet_file: fixed(
    'the spreadsheet: .xlsx, or a CSV/TSV export; - reads standard input',
    'le tableur : .xlsx, ou un export CSV/TSV ; - lit l’entrée standard',
  ),
  arg_exports: fixed(
    'official export files, merged (e.g. Formacode V14 and V13)',
    'fichiers d’export officiels, réunis (par exemple Formacode V14 et V13)',
  ),
  arg_key_id: fixed('the key id (key_…), not the key', 'l’identifiant de la clé (key_…), pas la clé'),
  opt_type: fixed('kind of file', 'type de fichier'),
  opt_declarant: fixed('who files it', 'qui le dépose'),
  opt_no_strict: fixed(
    'a code absent from a complete reference list is a warning, not an error',
    'un code absent d’une liste de référence complète est un avertissement, pas une erreur',
  ),
  opt_filename: fixed(
    'the name the file will be uploaded under (default: the last part of FILE.csv; none for -)',
    'le nom sous lequel le fichier sera déposé (par défaut : la fin de FILE.csv ; aucun pour -)',
  ),
  opt_max_rows: fixed(
    'refuse more than N rows (LINE_LIMIT_EXCEEDED, exit 2); no limit by default',
    'refuse plus de N lignes (LINE_LIMIT_EXCEEDED, code 2) ; aucune limite par défaut',
  ),
  opt_spec_version: fixed(
    'format version (default: the current one)',
    'version du format (par défaut : l’actuelle)',
  ),
  opt_today: fixed(
    'check as of another day (training dates, filing deadline)',
    'vérifie à une autre date (dates de formation, délai de dépôt)',
  ),
  opt_output: fixed(
    'write the CSV there (default: standard output)',
    'écrit le CSV à cet endroit (par défaut : la sortie standard)',
  ),
  opt_template_output: fixed(
    'write the workbook there (default: ppfile_template_<type>_<declarant>_<version>.xlsx in the current directory)',
    'écrit le classeur à cet endroit (par défaut : ppfile_template_<type>_<declarant>_<version>.xlsx dans le répertoire courant)',
  ),
  opt_sheet: fixed(
    'the sheet to read (default: the first with a recognizable header row)',
    'la feuille à lire (par défaut : la première qui a une ligne d’en-tête reconnaissable)',
  ),
  opt_mapping: fixed(
    'a JSON file { "header": "OFFICIAL_COLUMN" } overriding header detection (null ignores a header)',
    'un fichier JSON { "en-tête": "COLONNE_OFFICIELLE" } qui remplace la détection des en-têtes (null ignore un en-tête)',
  ),
  opt_generate: fixed(
    'go on to the official CSV, as generate does (to -o or standard output)',
    'va jusqu’au CSV officiel, comme generate (vers -o ou la sortie standard)',
  ),
  opt_fix_output: fixed(
    'write the fixed CSV there (default: standard output)',
    'écrit le CSV corrigé à cet endroit (par défaut : la sortie standard)',
  ),
  opt_list: fixed('which reference list', 'quelle liste de référence'),
  opt_dir: fixed(
    'write into DIR/<version>/ (default: PPFILE_REFERENCE_DATA or the repository’s reference-data/)',
    'écrit dans DIR/<version>/ (par défaut : PPFILE_REFERENCE_DATA ou reference-data/ du dépôt)',
  ),
  opt_partial: fixed(
    'mark the list partial: an absent code is only a warning',
    'marque la liste partielle : un code absent n’est qu’un avertissement',
  ),
  opt_org_name: fixed('name of the organization', 'nom de l’organisation'),
  opt_plan: fixed('plan (requests a minute, units a month)', 'offre (requêtes par minute, unités par mois)'),
  opt_org: fixed('organization id (org_…)', 'identifiant de l’organisation (org_…)'),
  opt_mode: fixed('live, or test (capped rows)', 'live, ou test (lignes plafonnées)'),
  opt_key_name: fixed('a label for people', 'un libellé pour les personnes'),
  opt_email: fixed('e-mail address of the person', 'adresse électronique de la personne'),
  opt_month: fixed('month (default: the current one, UTC)', 'mois (par défaut : le mois courant, UTC)'),
  opt_check: fixed(
    'check only (required: repairs are the workers’ job)',
    'vérifie seulement (obligatoire : réparer est le travail des workers)',
  ),
  opt_lang: fixed('language of the output (English by default)', 'langue de la sortie (anglais par défaut)'),
  opt_json: fixed(
    'print one JSON document (the HTTP API’s for the file commands)',
    'affiche un document JSON (celui de l’API HTTP pour les commandes de fichiers)',
  ),
  opt_help: fixed('print this help', 'affiche cette aide'),
} as const;

export type WordKey = keyof typeof WORDS;
export type ParamsOf<K extends WordKey> = Parameters<(typeof WORDS)[K]['en']>;

export function say<K extends WordKey>(lang: Lang, key: K, ...params: ParamsOf<K>): string {
  // libs/rules' `localize`, spelt out: `--version` and `--help` load no library at all.
  const template = WORDS[key][lang] as (...p: ParamsOf<K>) => string;
  return template(...params);
}

/** Every entry's key, for the catalogue's own test. */
export const WORD_KEYS = Object.keys(WORDS) as WordKey[];
