/**
 * The French guides (docs/fr/*.md, issue 33), checked rather than proofread:
 *
 * 1. French typography in their prose — the rules a French reader expects and a translation forgets:
 *    - U+202F (espace fine insécable) right before ; : ! ? — never a plain space, never a line break;
 *    - « and » with U+00A0 (espace insécable) inside, never ASCII double quotes;
 *    - the typographic apostrophe ’, never ';
 *    - U+00A0 between the groups of a number (1 000, 50 000) and after n° (n° 2022-1712);
 *    - … rather than three dots.
 *    Prose only: fenced blocks, inline code, URLs, link targets and HTML comments are what a program
 *    reads or prints, and stay byte for byte as they are — so they must hold neither U+00A0 nor U+202F.
 *
 * 2. Their examples of ppfile's French output (`--lang fr`). The English guides do not hold them, so
 *    they cannot be twins of an English block (harness.e2e-spec.ts); each is marked
 *    `<!-- test/docs/french-typography.e2e-spec.ts runs this block … -->` and run here, with the docs
 *    harness, in a fresh copy of docs/examples/ (so it uses only the shipped files): what the page
 *    shows must be what `npx ppfile … --lang fr` prints.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { commands, fencedBlocks, type Block } from './markdown';
import { openShell, removeSandbox, ROOT, runBlock, sandbox } from './harness';

jest.setTimeout(120_000);

const FR_DIR = path.join(ROOT, 'docs', 'fr');
const FR_DOCS = readdirSync(FR_DIR)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => path.posix.join('docs/fr', f));
const GUIDES = ['docs/fr/guide-employeur.md', 'docs/fr/guide-organisme-de-formation.md'];

interface Fault {
  line: number;
  column: number;
  rule: string;
  context: string;
}

/** `text` with every span that is not prose blanked out (same length, newlines kept). */
function proseOnly(text: string): { prose: string; code: { start: number; end: number }[] } {
  const chars = text.split('');
  const code: { start: number; end: number }[] = [];
  const blank = (start: number, end: number, isCode: boolean) => {
    for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = 'x';
    if (isCode) code.push({ start, end });
  };
  // Fenced blocks, fence lines included.
  const lines = text.split('\n');
  let offset = 0;
  let fence: string | null = null;
  let blockStart = 0;
  for (const line of lines) {
    const m = /^ *(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1]!;
      blockStart = offset;
    } else if (fence !== null && m && m[1]!.startsWith(fence) && line.trim() === m[1]) {
      blank(blockStart, offset + line.length, true);
      fence = null;
    }
    offset += line.length + 1;
  }
  if (fence !== null) blank(blockStart, text.length, true);
  const masked = () => chars.join('');
  const spans = (re: RegExp, isCode: boolean, group = 0) => {
    const current = masked();
    for (const m of current.matchAll(re)) {
      const start = m.index! + (group ? m[0].indexOf(m[group]!) : 0);
      blank(start, start + m[group]!.length, isCode);
    }
  };
  spans(/<!--[\s\S]*?-->/g, false);
  // The ! of an image, ![alt](target), is Markdown's, not an exclamation (the alt text is prose).
  spans(/!(?=\[[^\]\n]*\]\()/g, false);
  spans(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, true);
  spans(/\]\(([^)\s]*)\)/g, false, 1);
  spans(/<https?:\/\/[^>\s]+>/g, false);
  spans(/https?:\/\/[^\s)>\]]+/g, false);
  return { prose: masked(), code };
}

const RULES: { rule: string; re: RegExp }[] = [
  { rule: 'apostrophe droite : écrivez ’', re: /'/g },
  { rule: 'guillemets droits : écrivez « … »', re: /"/g },
  { rule: 'trois points : écrivez …', re: /\.\.\./g },
  {
    rule: 'il faut une espace fine insécable (U+202F) avant ; : ! ? (ni espace ordinaire, ni retour à la ligne)',
    re: /(?<!\u202F)[;:!?]/g,
  },
  { rule: 'espace fine insécable (U+202F) ailleurs que devant ; : ! ?', re: /\u202F(?![;:!?])/g },
  { rule: 'après « il faut une espace insécable (U+00A0)', re: /«(?!\u00A0)/g },
  { rule: 'avant » il faut une espace insécable (U+00A0)', re: /(?<!\u00A0)»/g },
  {
    rule: 'entre les tranches d’un nombre il faut une espace insécable (U+00A0) : 1 000',
    re: /\d[ \u202F\t]\d{3}(?!\d)/g,
  },
  {
    rule: 'nombre de 5 chiffres ou plus sans séparateur : écrivez 50 000 (un code va entre accents graves)',
    re: /(?<![\p{L}\p{N}_./-])\d{5,}(?![\p{L}\p{N}_])/gu,
  },
  { rule: 'après n° il faut une espace insécable (U+00A0)', re: /[nN]°(?!\u00A0)/g },
];

/** The typography faults of a French page, each with its line and column (1-based). */
function typographyFaults(text: string): Fault[] {
  const { prose, code } = proseOnly(text);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const where = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    const start = lineStarts[line]!;
    const end = text.indexOf('\n', start);
    const context = text
      .slice(Math.max(start, offset - 30), Math.min(end < 0 ? text.length : end, offset + 30))
      .replace(/\u202F/g, '⍽')
      .replace(/\u00A0/g, '␣');
    return { line: line + 1, column: offset - start + 1, context };
  };
  const faults: Fault[] = [];
  for (const { rule, re } of RULES)
    for (const m of prose.matchAll(re)) faults.push({ ...where(m.index!), rule });
  for (const { start, end } of code) {
    const inside = text.slice(start, end);
    for (const m of inside.matchAll(/[\u00A0\u202F]/g))
      faults.push({
        ...where(start + m.index!),
        rule: 'espace insécable dans du code (bloc ou `code`) : le code reste tel que le programme le lit ou l’écrit',
      });
  }
  return faults.sort((a, b) => a.line - b.line || a.column - b.column);
}

const show = (doc: string, faults: Fault[]) =>
  faults.map((f) => `${doc}:${f.line}:${f.column}: ${f.rule}  [${f.context}]`);

describe('French typography of docs/fr/*.md', () => {
  it('finds the French pages', () => {
    expect(FR_DOCS).toEqual(expect.arrayContaining(['docs/fr/README.md', ...GUIDES]));
  });

  for (const doc of FR_DOCS) {
    it(`${doc}: fine spaces, guillemets, apostrophes, non-breaking spaces — in prose only`, () => {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      expect(show(doc, typographyFaults(text))).toEqual([]);
    });
  }

  it('reports the faults of the pages as they were before issue 33, and none in code', () => {
    const before = [
      "Il ne dépose jamais rien à votre place : c'est vous qui déposez le fichier.",
      "- l'**API HTTP** (`pp_test_…` pour essayer : 50 lignes par requête, 1 000 lignes par mois) ;",
      'les verdicts ("valide", « invalide ») et le décret n° 2022-1712 ...',
      '```console run=offline',
      "$ npx ppfile check sst-2026-10.json --today 2026-11-23 : l'exemple",
      '```',
    ].join('\n');
    const rules = typographyFaults(before).map((f) => `${f.line}:${f.column} ${f.rule.split(' ')[0]}`);
    expect(rules).toEqual([
      '1:40 il', // a plain space before :
      '1:43 apostrophe', // c'est
      '2:4 apostrophe', // l'**API
      '2:44 il', // essayer :
      '2:69 entre', // 1 000 with a plain space
      '2:92 il', // mois ;
      '3:15 guillemets',
      '3:22 guillemets',
      '3:25 après', // «invalide
      '3:36 avant', // invalide»
      '3:52 après', // n° 2022
      '3:65 trois',
    ]);
    // Nothing is reported inside the fenced block (line 5), nor in inline code or link targets.
    expect(typographyFaults("`c'est : 1 000` [l\u2019API](../api.md#the-declaration-body)")).toEqual([]);
    // An image's ! is markup; its alt text is prose, and an exclamation still needs its fine space.
    expect(typographyFaults('![La page\u202F: un tableau](../images/x.png)')).toEqual([]);
    expect(
      typographyFaults('![La page : un tableau](../images/x.png) Attention!').map((f) => f.column),
    ).toEqual([11, 51]);
    // A non-breaking space inside code is a fault: it would change a command or an output.
    expect(typographyFaults('`--today\u00A02026-11-23`').map((f) => f.rule)).toEqual([
      expect.stringContaining('dans du code'),
    ]);
  });
});

/** The French-output examples: marked for this test, console blocks run offline, every command with --lang fr. */
const MARK = /french-typography\.e2e-spec\.ts runs this block/;
const frenchExamples = (doc: string): Block[] =>
  fencedBlocks(readFileSync(path.join(ROOT, doc), 'utf8')).filter((b) => b.comment && MARK.test(b.comment));

describe("the French guides' examples of ppfile's French output (--lang fr)", () => {
  for (const doc of GUIDES) {
    it(`${doc} shows ppfile's French output at least once`, () => {
      expect(frenchExamples(doc).length).toBeGreaterThan(0);
    });
  }

  for (const doc of FR_DOCS) {
    for (const block of frenchExamples(doc)) {
      it(`${doc}:${block.line} (--lang fr, run=offline)`, async () => {
        expect(`${block.lang} run=${block.attrs.run}`).toBe('console run=offline');
        const cmds = commands(block);
        expect(cmds.length).toBeGreaterThan(0);
        expect(cmds.filter((c) => /\bppfile\b/.test(c.text) && !/--lang fr\b/.test(c.text))).toEqual([]);
        const cwd = sandbox();
        const shell = openShell(cwd, {});
        try {
          // The same block as the docs test would run it, without the mark that hands it to this test.
          const problems = await runBlock(doc, { ...block, comment: null }, shell, cwd);
          if (problems.length) throw new Error(problems.join('\n\n'));
        } finally {
          shell.close();
          removeSandbox(cwd);
        }
      });
    }
  }
});
