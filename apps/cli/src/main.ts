import { RequestError } from '@ppfile/rules';
import {
  EXIT_USAGE,
  formatRequestError,
  printJson,
  processOutput,
  requestErrorBody,
  requestErrorExit,
  UsageError,
  type Output,
} from './cli-io';
import { checkCommand } from './commands/check';
import { generateCommand } from './commands/generate';
import { refdataCommand } from './commands/refdata';
import { validateCommand } from './commands/validate';

const USAGE = `ppfile — official Passeport de Prévention bulk-import files, offline

  ppfile validate FILE.csv --type adf|jdr --declarant employer|training_organization
                 [--no-strict-references] [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile check BODY.json [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile generate BODY.json [-o OUT.csv] [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile refdata import --list rome|formacode|nsf|rs FILE... [--dir DIR] [--partial] [--json]
  ppfile admin org create --name NAME --plan free|starter|pro|business [--json]
  ppfile admin key create --org ID --mode live|test [--name LABEL] [--json]
  ppfile admin key revoke KEY_ID [--json]
  ppfile admin user create --org ID --email E [--json]   (prints a one-time dashboard invitation link)
  ppfile admin usage --org ID [--month YYYY-MM] [--json]
  ppfile admin db migrate [--json]

Exit status: 0 valid / generated, 1 invalid, 2 usage or I/O error.
PPFILE_REFERENCE_DATA points at another reference-data directory.
admin commands use DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/ppfile).
`;

type Command = (args: string[], output: Output, env: NodeJS.ProcessEnv) => number | Promise<number>;

const COMMANDS: Record<string, Command> = {
  validate: validateCommand,
  check: checkCommand,
  generate: generateCommand,
  refdata: refdataCommand,
  // Loaded on demand: the offline commands never load Prisma.
  admin: (args, output, env) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('./commands/admin') as typeof import('./commands/admin')).adminCommand(args, output, env),
};

/** The exit status; a promise of it for the commands that talk to the database (admin). */
export function run(
  argv: string[],
  output: Output = processOutput,
  env: NodeJS.ProcessEnv = process.env,
): number | Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    output.out(USAGE);
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    output.err(`ppfile: unknown command "${name}"\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const json = args.includes('--json');
  const fail = (e: unknown): number => {
    if (e instanceof RequestError) {
      if (json) printJson(output, requestErrorBody(e));
      else output.err(formatRequestError(e));
      return requestErrorExit(e);
    }
    if (e instanceof UsageError) {
      output.err(`ppfile ${name}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  };
  try {
    const status = command(args, output, env);
    return typeof status === 'number' ? status : status.catch(fail);
  } catch (e) {
    return fail(e);
  }
}

if (require.main === module) {
  const status = run(process.argv.slice(2));
  if (typeof status === 'number') process.exitCode = status;
  else void status.then((code) => (process.exitCode = code));
}
