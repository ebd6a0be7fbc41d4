/**
 * Reference lists for the tests of libs/rules/test: every list complete (so that an absent code is
 * an error, API.md §3c), holding exactly the codes the golden bodies and the property test use. The
 * ROME and Formacode codes are real ones, present in the shipped complete lists (checked by
 * libs/refdata/src/shipped-lists.spec.ts), so a body built from them is valid against those too.
 */
import { createReferenceLists, type ReferenceListName, type ReferenceLists } from '@ppfile/rules';

export const GOLDEN_CODES: Readonly<Record<ReferenceListName, readonly string[]>> = {
  rome: [
    '115650',
    '121885',
    '400635',
    '114955',
    '403582',
    '501955',
    '508690',
    '400708',
    '400631',
    '103309',
    '121778',
    '400248',
    '489756',
    '120864',
    '400610',
    '108845',
    '115272',
    '121224',
    '123882',
    '483450',
  ],
  formacode: ['42829', '42817', '42866', '42875', '42819', '24049', '24039', '31795', '31717'],
  nsf: ['344', '344r', '344p', '255', '255s', '255r', '230', '230r', '230u', '311', '311u'],
  rs: ['RS6869', 'RS6417', 'RS5635', 'RS6550', 'RS1234567'],
};

export function completeReferences(
  codes: Readonly<Record<ReferenceListName, readonly string[]>> = GOLDEN_CODES,
  complete = true,
): ReferenceLists {
  const list = (name: ReferenceListName) => ({
    source: 'libs/rules/test',
    version: 'test',
    complete,
    entries: codes[name].map((c) => [c, `label ${c}`] as const),
  });
  return createReferenceLists({
    rome: list('rome'),
    formacode: list('formacode'),
    nsf: list('nsf'),
    rs: list('rs'),
  });
}

/** A line-by-line, column-by-column account of how two CSV files differ (for golden failures). */
export function describeCsvDifference(expected: Buffer, actual: Buffer): string {
  const show = (s: string) => JSON.stringify(s);
  const exp = expected.toString('utf8').split('\n');
  const act = actual.toString('utf8').split('\n');
  const header = (exp[0] ?? '').replace(/\r$/, '').split('|');
  const out: string[] = [`expected ${expected.length} bytes, got ${actual.length} bytes`];
  for (let i = 0; i < Math.max(exp.length, act.length); i++) {
    const e = exp[i];
    const a = act[i];
    if (e === a) continue;
    out.push(
      `line ${i + 1}:`,
      `  expected ${e === undefined ? '(none)' : show(e)}`,
      `  actual   ${a === undefined ? '(none)' : show(a)}`,
    );
    if (e !== undefined && a !== undefined) {
      const ec = e.split('|');
      const ac = a.split('|');
      for (let k = 0; k < Math.max(ec.length, ac.length); k++) {
        if (ec[k] !== ac[k])
          out.push(
            `    ${header[k] ?? `#${k + 1}`}: expected ${show(ec[k] ?? '(none)')}, actual ${show(ac[k] ?? '(none)')}`,
          );
      }
    }
    if (out.length > 60) break;
  }
  return out.join('\n');
}
