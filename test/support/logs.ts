import { NIR_A, NIR_B, NIR_CORSICA } from '@ppfile/rules/testing/fixtures';

/**
 * Every log line the processes of one test file write (in-process gateways and workers through
 * their log destination, spawned workers and gateways through their output), so that
 * suite-audit.setup.ts can check them after the file's tests: each line JSON, none carrying a NIR, a
 * birth name or a key of the fixtures.
 */
export class LogSink {
  readonly lines: string[] = [];
  private partial = '';

  /** pino's destination interface: one or more whole lines per call. */
  write(chunk: string): void {
    this.feed(chunk);
  }

  /** A child's output, in chunks that may cut lines anywhere. */
  feed(chunk: string | Buffer): void {
    const text = this.partial + chunk.toString();
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') this.lines.push(line);
  }

  /** Lines of one kind (`type: 'access'`, `'job'`), parsed. */
  entries(type?: string): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const line of this.lines) {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (type === undefined || entry.type === type) out.push(entry);
      } catch {
        // not JSON: the audit reports it
      }
    }
    return out;
  }
}

/** The log lines of the current test file (jest gives each test file its own module registry). */
export const suiteLogs = new LogSink();

/** NIRs and birth names of the fixtures and of the tests (gateway, worker, cli, chaos, security). */
export const PERSONAL_VALUES = [
  NIR_A,
  NIR_B,
  NIR_CORSICA,
  '7550814168025',
  'DUPONT',
  'MARTIN',
  'QUASIMODO',
  'ZÉPHYRINE',
  'BARTHÉLÉMY',
  'O|BRIEN',
  'MAR|TIN',
];
/** A 15-character NIR standing alone (sex, year, month, department, commune, order) whose key is right. */
const NIR_15 = /(?<![0-9A-Za-z])([12378]\d{4}(?:\d{2}|2[AB])\d{6})(\d{2})(?![0-9A-Za-z])/g;

function hasKeyedNir(line: string): boolean {
  for (const m of line.matchAll(NIR_15)) {
    const base = m[1]!.replace('2A', '19').replace('2B', '18');
    if (97 - Number(BigInt(base) % 97n) === Number(m[2])) return true;
  }
  return false;
}
/** An API key in clear (pp_live_…, pp_test_…): ids and 12-character display prefixes are fine, secrets never. */
const API_KEY = /pp_(?:live|test)_[A-Za-z0-9]{8,}/;

/** What is wrong with a set of log lines: not JSON, or carrying personal data or a secret. */
export function auditLogLines(lines: string[]): string[] {
  const problems: string[] = [];
  for (const line of lines) {
    const short = line.length > 160 ? `${line.slice(0, 160)}…` : line;
    try {
      const parsed: unknown = JSON.parse(line);
      if (!parsed || typeof parsed !== 'object') problems.push(`not a JSON object: ${short}`);
    } catch {
      problems.push(`not JSON: ${short}`);
      continue;
    }
    const value = PERSONAL_VALUES.find((v) => line.includes(v));
    if (value) problems.push(`personal value "${value.slice(0, 3)}…" in: ${short.replace(value, '[…]')}`);
    else if (hasKeyedNir(line)) problems.push(`a NIR with its key in: ${short.replace(NIR_15, '[…]')}`);
    if (API_KEY.test(line)) problems.push(`an API key in clear in: ${short.replace(API_KEY, '[…]')}`);
  }
  return problems;
}
