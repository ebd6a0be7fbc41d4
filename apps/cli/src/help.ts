import type { Lang } from '@ppfile/rules';
import { COMMON_OPTIONS, leaves, type Leaf, type Node, type OptionSpec } from './command-tree';
import { say } from './words';

/** Usage texts, all drawn from the command tree: the same words for `--help` at every level. */

const WIDTH = 100;

function optionForm(option: OptionSpec): string {
  const flag = option.short ? `-${option.short}` : `--${option.name}`;
  return option.value ? `${flag} ${option.value}` : flag;
}

/** `ppfile validate FILE.csv --type adf|jdr … [--json]`, wrapped under its first argument. */
function synopsis(path: string[], leaf: Leaf, lead = ''): string {
  const head = `${lead}${['ppfile', ...path].join(' ')}`;
  const parts: string[] = [];
  if (leaf.operand) parts.push(leaf.operand.count === 'many' ? `${leaf.operand.name}...` : leaf.operand.name);
  for (const option of [...leaf.options, ...COMMON_OPTIONS]) {
    if (option.name === 'help') continue;
    parts.push(option.required ? optionForm(option) : `[${optionForm(option)}]`);
  }
  const indent = ' '.repeat(head.length + 1);
  const lines: string[] = [];
  let line = head;
  for (const part of parts) {
    if (line.length + 1 + part.length > WIDTH && line.trim() !== head.trim()) {
      lines.push(line);
      line = indent + part;
    } else line += ` ${part}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

/** Two columns; a left cell too wide for its column puts its text on the next line. */
function table(rows: [string, string][]): string {
  const column = Math.min(Math.max(...rows.map(([left]) => left.length)), 24) + 4;
  const pad = ' '.repeat(column);
  return rows
    .map(([left, right]) => {
      const text = wrap(right, WIDTH - column).join(`\n${pad}`);
      return left.length + 4 > column ? `  ${left}\n${pad}${text}` : `  ${left.padEnd(column - 2)}${text}`;
    })
    .join('\n');
}

function leafHelp(path: string[], leaf: Leaf, lang: Lang): string {
  const rows: [string, string][] = [];
  if (leaf.operand) rows.push([leaf.operand.name, say(lang, leaf.operand.help)]);
  for (const option of [...leaf.options, ...COMMON_OPTIONS]) {
    const long = `--${option.name}${option.value ? ` ${option.value}` : ''}`;
    rows.push([option.short ? `-${option.short}, ${long}` : long, say(lang, option.help)]);
  }
  return `${synopsis(path, leaf, `${say(lang, 'usage')} `)}\n\n${say(lang, leaf.summary)}\n\n${table(rows)}\n`;
}

function groupHelp(path: string[], node: Node, lang: Lang): string {
  const lines = leaves(node, path).map(({ path: p, leaf }) => synopsis(p, leaf, '  '));
  const command = ['ppfile', ...path].join(' ');
  if (path.length === 0) return `${say(lang, 'title')}\n\n${lines.join('\n')}\n\n${say(lang, 'notes')}\n`;
  return (
    `${say(lang, 'usage')}\n${lines.join('\n')}\n\n${say(lang, node.summary)}\n` +
    `${say(lang, 'help_hint', { command })}\n`
  );
}

/** The help of the command or group `node` found at `path`. */
export function helpText(path: string[], node: Node, lang: Lang): string {
  return node.kind === 'command' ? leafHelp(path, node, lang) : groupHelp(path, node, lang);
}
