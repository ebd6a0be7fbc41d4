import { parseArgs } from 'node:util';
import type { Lang } from '@ppfile/rules';
import { usageError } from './cli-io';
import { COMMON_OPTIONS, type Leaf } from './command-tree';
import type { Values } from './invocation';

/**
 * Parses a command's arguments against its entry of the command tree. Node's strict parser would
 * do, but its messages are English sentences of its own; the tokens let every refusal be a
 * catalogue entry, worded in the caller's language.
 */
export function parseCommand(
  args: string[],
  leaf: Leaf,
): { values: Values; positionals: string[]; help: boolean } {
  const specs = [...leaf.options, ...COMMON_OPTIONS];
  const options = Object.fromEntries(
    specs.map((o) => [o.name, o.short ? { type: o.type, short: o.short } : { type: o.type }]),
  );
  const { values, positionals, tokens } = parseArgs({
    args,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const help = tokens.some((t) => t.kind === 'option' && t.name === 'help');
  if (help) return { values: {}, positionals: [], help };
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = specs.find((o) => o.name === token.name);
    if (!spec) throw usageError('unknown_option', { option: token.rawName });
    if (spec.type === 'boolean' && token.inlineValue) {
      throw usageError('takes_no_value', { option: token.rawName });
    }
    // `--today --json`: Node would take "--json" for the date.
    if (
      spec.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('--')))
    ) {
      throw usageError('needs_value', { option: token.rawName, value: spec.value ?? '' });
    }
  }
  const operand = leaf.operand;
  if (!operand && positionals.length > 0) {
    throw usageError('unexpected_operand', { value: positionals[0]! });
  }
  if (operand?.count === 'one' && positionals.length !== 1) {
    if (positionals.length > 1) throw usageError('unexpected_operand', { value: positionals[1]! });
    throw usageError('one_operand', { operand: operand.name });
  }
  if (operand?.count === 'many' && positionals.length === 0) {
    throw usageError('operands_needed', { operand: operand.name });
  }
  return { values, positionals, help };
}

/**
 * The language asked for, read before parsing so that even a refusal of the command line is worded
 * in it; an invalid value is refused by langOption, in English.
 */
export function requestedLang(args: string[]): Lang {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === '--lang=fr' || (arg === '--lang' && args[i + 1] === 'fr')) return 'fr';
  }
  return 'en';
}

export function langOption(value: string | boolean | undefined): Lang {
  if (value === undefined) return 'en';
  if (value !== 'en' && value !== 'fr') throw usageError('expects_lang');
  return value;
}
