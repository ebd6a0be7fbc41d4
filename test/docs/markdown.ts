/**
 * The fenced blocks of a Markdown file and what their info string says about them (the convention of
 * docs/README.md, "Examples are tests"):
 *
 *   ```console run=offline      `$ ` lines are commands, the lines after each its expected output
 *   ```console run=stack        the same, against a started gateway + worker ($BASE, $KEY, …)
 *   ```bash run=offline         a script whose output is not shown: it must exit 0
 *   ```json file=NAME           this is the file NAME of the examples' directory (docs/examples/)
 *   ```text file=NAME excerpt   these lines appear, in this order, in NAME (made by an earlier example)
 *   ```ts file=NAME             a program shipped as docs/examples/NAME (compiled and run by a test)
 *   ```text not-run="reason"    deliberately not run: the reason says why
 *
 * A block preceded by `<!-- test/X.e2e-spec.ts runs this block … -->` is run by that test instead.
 */
export interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  attrs: Record<string, string>;
  /** The lines between the fences, their indentation (a block inside a list item) removed. */
  lines: string[];
  /** The HTML comment right before the block, if any (blank lines between allowed). */
  comment: string | null;
}

const FENCE = /^( *)(`{3,}|~{3,})(.*)$/;

/** Splits `lang key=value key="a value" flag` into the language and its attributes. */
export function parseInfo(info: string): { lang: string; attrs: Record<string, string> } {
  const tokens = [...info.trim().matchAll(/([^\s=]+)(?:=(?:"([^"]*)"|(\S*)))?/g)];
  const attrs: Record<string, string> = {};
  let lang = '';
  tokens.forEach((t, i) => {
    if (i === 0 && t[2] === undefined && t[3] === undefined) {
      lang = t[1]!;
      return;
    }
    attrs[t[1]!] = t[2] ?? t[3] ?? '';
  });
  return { lang, attrs };
}

export function fencedBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let lastComment: { text: string; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const comment = /^\s*<!--([\s\S]*?)-->\s*$/.exec(line);
    if (comment) {
      lastComment = { text: comment[1]!.trim(), line: i };
      continue;
    }
    const open = FENCE.exec(line);
    if (!open) {
      if (line.trim() !== '') lastComment = null;
      continue;
    }
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      const close = FENCE.exec(l);
      if (close && close[2]!.startsWith(fence!) && close[3]!.trim() === '') break;
      body.push(l.startsWith(indent!) ? l.slice(indent!.length) : l.trimStart());
    }
    const { lang, attrs } = parseInfo(info!);
    blocks.push({ line: i + 1, lang, attrs, lines: body, comment: lastComment?.text ?? null });
    lastComment = null;
    i = j;
  }
  return blocks;
}

export interface Command {
  /** 1-based line of the `$ ` line in the Markdown file. */
  line: number;
  /** The command as bash reads it (continuation lines kept). */
  text: string;
  /** The expected output, with the Markdown line of each. */
  expected: { text: string; line: number }[];
}

/** The `$ ` commands of a console block, each with the output lines that follow it. */
export function commands(block: Block): Command[] {
  const out: Command[] = [];
  const lines = block.lines;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.startsWith('$ ')) {
      const current = out[out.length - 1];
      if (!current) throw new Error(`line ${block.line + 1 + i}: output before any "$ " command`);
      current.expected.push({ text: l, line: block.line + 1 + i });
      continue;
    }
    const start = i;
    let text = l.slice(2);
    while (text.endsWith('\\') && i + 1 < lines.length) {
      i++;
      text += `\n${lines[i]!}`;
    }
    out.push({ line: block.line + 1 + start, text, expected: [] });
  }
  for (const c of out) {
    while (c.expected.length && c.expected[c.expected.length - 1]!.text.trim() === '') c.expected.pop();
  }
  return out;
}
