/**
 * What a doc shows against what came out. Both sides are masked first (what differs on every run:
 * ids, request ids, keys, timestamps, generated names, invitation tokens, seconds to wait), then
 * compared line by line. In the expected text a line `...` (or `  ...`, `... (comment)`) stands for
 * any number of lines, and `…` inside a line for any text. An HTTP answer shown with `curl -i` is
 * compared by its status line, the headers the doc names (others ignored) and its body.
 */
const MASKS: [RegExp, string][] = [
  [/\bfile_[0-9a-f]{32}\b/g, 'file_<id>'],
  [/\breq_[0-9a-f]{32}\b/g, 'req_<id>'],
  [/\b(org|key|usr)_[0-9a-f]{24}\b/g, '$1_<id>'],
  [/\bpp_(live|test)_[A-Za-z0-9]{32,}\b/g, 'pp_$1_<key>'],
  [/\bpp_(live|test)_[A-Za-z0-9]{4}(?=…|"|\b)/g, 'pp_$1_<prefix>'],
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, '<time>'],
  [/\bppfile_(adf|jdr)_\d{8}_[0-9a-f]{8}\.csv\b/g, 'ppfile_$1_<name>.csv'],
  // The database of the test stack: the docs show the default one, `ppfile`.
  [/\bppfile_test_[0-9a-f]{12}\b/g, 'ppfile'],
  [/\/dashboard\/invite\/[A-Za-z0-9_-]{20,}/g, '/dashboard/invite/<token>'],
  [/^(Retry-After|X-RateLimit-Reset): \d+/gim, '$1: <s>'],
  [/retry in \d+ s/g, 'retry in <s> s'],
  [/"retry_after":\s?\d+/g, '"retry_after":<s>'],
];

export function mask(text: string): string {
  return MASKS.reduce((t, [re, by]) => t.replace(re, by), text);
}

const isGap = (line: string) => line.trim().startsWith('...');

function lineRegex(expected: string): RegExp {
  const parts = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`, 's');
}

export interface Expected {
  text: string;
  line: number;
}

/**
 * null when `actual` matches `expected`, else what differs, naming the Markdown line. `anchored`
 * false: the expected lines may sit anywhere in the actual text (an excerpt of a file).
 */
export function compareLines(expected: Expected[], actualText: string, anchored = true): string | null {
  const exp = expected.map((e) => ({ line: e.line, text: mask(e.text).trimEnd() }));
  const act = mask(actualText)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
  while (act.length && act[act.length - 1] === '') act.pop();
  if (!anchored) {
    exp.unshift({ line: exp[0]?.line ?? 0, text: '...' });
    exp.push({ line: exp[exp.length - 1]?.line ?? 0, text: '...' });
  }
  // The furthest expected line reached, for the message.
  let best = { e: 0, a: 0 };
  const memo = new Set<string>();
  const match = (e: number, a: number): boolean => {
    const key = `${e},${a}`;
    if (memo.has(key)) return false;
    memo.add(key);
    if (e > best.e || (e === best.e && a > best.a)) best = { e, a };
    if (e === exp.length) return a === act.length;
    const line = exp[e]!;
    if (isGap(line.text)) {
      for (let k = a; k <= act.length; k++) if (match(e + 1, k)) return true;
      return false;
    }
    if (a >= act.length) return false;
    if (!lineRegex(line.text).test(act[a]!)) return false;
    return match(e + 1, a + 1);
  };
  if (match(0, 0)) return null;
  const at = exp[Math.min(best.e, exp.length - 1)];
  const got = best.a < act.length ? JSON.stringify(act[best.a]) : '(end of output)';
  const shown = at && !isGap(at.text) ? JSON.stringify(at.text) : '(end of the expected output)';
  return `line ${at?.line ?? '?'}: the doc shows ${shown}, the run printed ${got}\n--- whole output (masked) ---\n${act.join('\n')}`;
}

/** An answer printed by `curl -i`: status line, headers the doc names, then the body. */
export function compareHttp(expected: Expected[], actualText: string): string | null {
  const act = actualText.replace(/\r\n/g, '\n');
  const split = act.indexOf('\n\n');
  const head = (split < 0 ? act : act.slice(0, split)).split('\n');
  const body = split < 0 ? '' : act.slice(split + 2);
  const headers = new Map<string, string>();
  for (const h of head.slice(1)) {
    const i = h.indexOf(':');
    if (i > 0) headers.set(h.slice(0, i).toLowerCase(), mask(`${h.slice(0, i)}: ${h.slice(i + 1).trim()}`));
  }
  const [status, ...rest] = expected;
  if (!status || mask(status.text).trim() !== head[0]!.trim())
    return `line ${status?.line}: the doc shows ${JSON.stringify(status?.text)}, the server answered ${JSON.stringify(head[0])}`;
  let i = 0;
  for (; i < rest.length; i++) {
    const e = rest[i]!;
    if (isGap(e.text)) continue;
    const h = /^([A-Za-z0-9-]+): (.*)$/.exec(e.text);
    if (!h) break;
    const got = headers.get(h[1]!.toLowerCase());
    if (got === undefined) return `line ${e.line}: the doc shows the header ${h[1]}, the answer has none`;
    if (!lineRegex(mask(e.text).trimEnd()).test(got))
      return `line ${e.line}: the doc shows ${JSON.stringify(e.text)}, the server sent ${JSON.stringify(got)}`;
  }
  return compareLines(rest.slice(i), body);
}
