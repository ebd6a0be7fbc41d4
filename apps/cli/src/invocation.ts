import type { Lang } from '@ppfile/rules';
import type { Output } from './cli-io';

/**
 * What a command's code receives when it runs. Apart from the command tree, which loads the
 * commands: a command that imported the tree would close an import circle through it.
 */

export type Values = Record<string, string | boolean | undefined>;

export interface Invocation {
  values: Values;
  positionals: string[];
  output: Output;
  env: NodeJS.ProcessEnv;
  /** --lang, already checked. */
  lang: Lang;
}

export type Runner = (invocation: Invocation) => number | Promise<number>;
