import type { Runner } from './invocation';
import type { WordKey } from './words';

/**
 * Every command of `ppfile`, its operands and options: the parser, `--help` at every level and the
 * top-level usage all read this one table, so a command cannot be accepted without being listed, nor
 * listed with options it refuses. A command's code is loaded only when it runs (`--version` and
 * `--help` load none; the offline commands never load Prisma).
 */

export interface OptionSpec {
  name: string;
  type: 'string' | 'boolean';
  short?: string;
  /** The value in the synopsis: a placeholder (`YYYY-MM-DD`) or the choices (`adf|jdr`). */
  value?: string;
  /** Shown without brackets; the command itself refuses its absence (with a precise message). */
  required?: boolean;
  help: WordKey;
}

export interface OperandSpec {
  name: string;
  count: 'one' | 'many';
  help: WordKey;
}

export interface Leaf {
  kind: 'command';
  summary: WordKey;
  operand?: OperandSpec;
  options: OptionSpec[];
  load: () => Promise<Runner>;
}

export interface Group {
  kind: 'group';
  summary: WordKey;
  children: Record<string, Node>;
}

export type Node = Leaf | Group;

/** Accepted by every command. */
export const COMMON_OPTIONS: OptionSpec[] = [
  { name: 'lang', type: 'string', value: 'en|fr', help: 'opt_lang' },
  { name: 'json', type: 'boolean', help: 'opt_json' },
  { name: 'help', type: 'boolean', short: 'h', help: 'opt_help' },
];

const maxRows: OptionSpec = { name: 'max-rows', type: 'string', value: 'N', help: 'opt_max_rows' };
const today: OptionSpec = { name: 'today', type: 'string', value: 'YYYY-MM-DD', help: 'opt_today' };
const specVersion: OptionSpec = {
  name: 'spec-version',
  type: 'string',
  value: 'VERSION',
  help: 'opt_spec_version',
};
const type: OptionSpec = { name: 'type', type: 'string', value: 'adf|jdr', required: true, help: 'opt_type' };
const declarant: OptionSpec = {
  name: 'declarant',
  type: 'string',
  value: 'employer|training_organization',
  required: true,
  help: 'opt_declarant',
};
const org: OptionSpec = { name: 'org', type: 'string', value: 'ID', required: true, help: 'opt_org' };
/** Kept in step with libs/db's PLAN_NAMES by test/db.e2e-spec.ts; libs/db is not loaded for help. */
const PLANS = 'free|starter|pro|business';

const admin = async () => (await import('./commands/admin')).admin;

export const ROOT: Group = {
  kind: 'group',
  summary: 'title',
  children: {
    validate: {
      kind: 'command',
      summary: 'sum_validate',
      operand: { name: 'FILE.csv', count: 'one', help: 'arg_csv' },
      options: [
        { name: 'type', type: 'string', value: 'adf|jdr', required: true, help: 'opt_type' },
        {
          name: 'declarant',
          type: 'string',
          value: 'employer|training_organization',
          required: true,
          help: 'opt_declarant',
        },
        { name: 'no-strict-references', type: 'boolean', help: 'opt_no_strict' },
        { name: 'filename', type: 'string', value: 'NAME', help: 'opt_filename' },
        maxRows,
        specVersion,
        today,
      ],
      load: async () => (await import('./commands/validate')).validateCommand,
    },
    check: {
      kind: 'command',
      summary: 'sum_check',
      operand: { name: 'BODY.json', count: 'one', help: 'arg_body' },
      options: [maxRows, today],
      load: async () => (await import('./commands/check')).checkCommand,
    },
    generate: {
      kind: 'command',
      summary: 'sum_generate',
      operand: { name: 'BODY.json', count: 'one', help: 'arg_body' },
      options: [
        { name: 'output', short: 'o', type: 'string', value: 'OUT.csv', help: 'opt_output' },
        maxRows,
        today,
      ],
      load: async () => (await import('./commands/generate')).generateCommand,
    },
    template: {
      kind: 'command',
      summary: 'sum_template',
      options: [
        type,
        declarant,
        { name: 'output', short: 'o', type: 'string', value: 'FILE.xlsx', help: 'opt_template_output' },
        specVersion,
      ],
      load: async () => (await import('./commands/spreadsheets')).templateCommand,
    },
    import: {
      kind: 'command',
      summary: 'sum_import',
      operand: { name: 'FILE.xlsx|FILE.csv', count: 'one', help: 'arg_sheet_file' },
      options: [
        type,
        declarant,
        { name: 'sheet', type: 'string', value: 'S', help: 'opt_sheet' },
        { name: 'mapping', type: 'string', value: 'MAP.json', help: 'opt_mapping' },
        { name: 'generate', type: 'boolean', help: 'opt_generate' },
        { name: 'output', short: 'o', type: 'string', value: 'OUT.csv', help: 'opt_output' },
        { name: 'no-strict-references', type: 'boolean', help: 'opt_no_strict' },
        maxRows,
        specVersion,
        today,
      ],
      load: async () => (await import('./commands/spreadsheets')).importCommand,
    },
    fix: {
      kind: 'command',
      summary: 'sum_fix',
      operand: { name: 'FILE.csv', count: 'one', help: 'arg_csv' },
      options: [
        type,
        declarant,
        { name: 'output', short: 'o', type: 'string', value: 'OUT.csv', help: 'opt_fix_output' },
        { name: 'no-strict-references', type: 'boolean', help: 'opt_no_strict' },
        maxRows,
        specVersion,
        today,
      ],
      load: async () => (await import('./commands/spreadsheets')).fixCommand,
    },
    refdata: {
      kind: 'group',
      summary: 'sum_refdata',
      children: {
        import: {
          kind: 'command',
          summary: 'sum_refdata_import',
          operand: { name: 'FILE', count: 'many', help: 'arg_exports' },
          options: [
            {
              name: 'list',
              type: 'string',
              value: 'rome|formacode|nsf|rs',
              required: true,
              help: 'opt_list',
            },
            { name: 'dir', type: 'string', value: 'DIR', help: 'opt_dir' },
            { name: 'partial', type: 'boolean', help: 'opt_partial' },
            specVersion,
          ],
          load: async () => (await import('./commands/refdata')).refdataImport,
        },
      },
    },
    admin: {
      kind: 'group',
      summary: 'sum_admin',
      children: {
        org: {
          kind: 'group',
          summary: 'sum_admin_org',
          children: {
            create: {
              kind: 'command',
              summary: 'sum_admin_org_create',
              options: [
                { name: 'name', type: 'string', value: 'NAME', required: true, help: 'opt_org_name' },
                { name: 'plan', type: 'string', value: PLANS, required: true, help: 'opt_plan' },
              ],
              load: async () => (await admin()).orgCreate,
            },
            list: {
              kind: 'command',
              summary: 'sum_admin_org_list',
              options: [],
              load: async () => (await admin()).orgList,
            },
          },
        },
        key: {
          kind: 'group',
          summary: 'sum_admin_key',
          children: {
            create: {
              kind: 'command',
              summary: 'sum_admin_key_create',
              options: [
                org,
                { name: 'mode', type: 'string', value: 'live|test', required: true, help: 'opt_mode' },
                { name: 'name', type: 'string', value: 'LABEL', help: 'opt_key_name' },
              ],
              load: async () => (await admin()).keyCreate,
            },
            list: {
              kind: 'command',
              summary: 'sum_admin_key_list',
              options: [org],
              load: async () => (await admin()).keyList,
            },
            revoke: {
              kind: 'command',
              summary: 'sum_admin_key_revoke',
              operand: { name: 'KEY_ID', count: 'one', help: 'arg_key_id' },
              options: [],
              load: async () => (await admin()).keyRevoke,
            },
          },
        },
        user: {
          kind: 'group',
          summary: 'sum_admin_user',
          children: {
            create: {
              kind: 'command',
              summary: 'sum_admin_user_create',
              options: [
                org,
                { name: 'email', type: 'string', value: 'E', required: true, help: 'opt_email' },
              ],
              load: async () => (await admin()).userCreate,
            },
            reinvite: {
              kind: 'command',
              summary: 'sum_admin_user_reinvite',
              options: [{ name: 'email', type: 'string', value: 'E', required: true, help: 'opt_email' }],
              load: async () => (await admin()).userReinvite,
            },
            remove: {
              kind: 'command',
              summary: 'sum_admin_user_remove',
              options: [{ name: 'email', type: 'string', value: 'E', required: true, help: 'opt_email' }],
              load: async () => (await admin()).userRemove,
            },
          },
        },
        usage: {
          kind: 'command',
          summary: 'sum_admin_usage',
          options: [org, { name: 'month', type: 'string', value: 'YYYY-MM', help: 'opt_month' }],
          load: async () => (await admin()).usage,
        },
        reconcile: {
          kind: 'command',
          summary: 'sum_admin_reconcile',
          options: [{ name: 'check', type: 'boolean', required: true, help: 'opt_check' }],
          load: async () => (await admin()).reconcileCheck,
        },
        queue: {
          kind: 'group',
          summary: 'sum_admin_queue',
          children: {
            'drain-legacy': {
              kind: 'command',
              summary: 'sum_admin_queue_drain_legacy',
              options: [],
              load: async () => (await admin()).drainLegacy,
            },
          },
        },
        db: {
          kind: 'group',
          summary: 'sum_admin_db',
          children: {
            migrate: {
              kind: 'command',
              summary: 'sum_admin_db_migrate',
              options: [],
              load: async () => (await admin()).dbMigrate,
            },
          },
        },
      },
    },
  },
};

/** The leaves under `node`, depth first, with their paths (`['admin', 'key', 'list']`). */
export function leaves(node: Node, path: string[] = []): { path: string[]; leaf: Leaf }[] {
  if (node.kind === 'command') return [{ path, leaf: node }];
  return Object.entries(node.children).flatMap(([name, child]) => leaves(child, [...path, name]));
}
