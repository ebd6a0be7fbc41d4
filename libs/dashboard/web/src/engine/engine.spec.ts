import { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_LIMITS, generateFile, validateCsv, validateDeclarations } from '@ppfile/rules';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { importSheet } from '@ppfile/sheets';
import { Engine, errorBody, referenceListsOf, type ReferenceListsAsset } from './engine';

/** The lists asset as the gateway builds it (libs/dashboard web-assets.ts referenceListsAsset). */
function shippedAsset(): ReferenceListsAsset {
  const lists = new ReferenceDirectory(null).lists('2026-02');
  const entry = (name: 'rome' | 'formacode' | 'nsf' | 'rs') => ({
    source: lists[name].source,
    version: lists[name].version,
    complete: lists[name].complete,
    codes: [...lists[name].entries.keys()].join('\n'),
  });
  return {
    spec_version: '2026-02',
    lists: { rome: entry('rome'), formacode: entry('formacode'), nsf: entry('nsf'), rs: entry('rs') },
  };
}

const TODAY = 20261122;
const refs = () => new ReferenceDirectory(null).lists('2026-02');
const csv = (holders: number) =>
  generateFile(validBody('adf', 'employer', holders), { refs: refs() }).content;
const form = { type: 'adf', declarant: 'employer', strict_references: true, filename: 'f.csv' };

describe('the engine (run in Node here; in Chromium by test/browser-engine.e2e-spec.ts)', () => {
  const engine = new Engine(shippedAsset(), '2026-11-22', 'en');
  const env = { refs: refs(), today: TODAY, lang: 'en' as const, maxRows: CURRENT_LIMITS.maxRowsLive };

  it('reads the lists asset into the lists the server has', () => {
    const lists = referenceListsOf(shippedAsset());
    const server = refs();
    for (const name of ['rome', 'formacode', 'nsf', 'rs'] as const) {
      expect(lists[name].complete).toBe(server[name].complete);
      expect([...lists[name].entries.keys()]).toEqual([...server[name].entries.keys()]);
    }
    expect([...lists.nsfGroups].sort()).toEqual([...server.nsfGroups].sort());
    expect(engine.info().lists.rome).toEqual({ complete: true, version: server.rome.version });
  });

  it('validates a CSV as validateCsv does with a live key, in slices, reporting progress', () => {
    const bytes = Buffer.concat([csv(3), Buffer.from(`${'x'.repeat(40)}|y\r\n`.repeat(12_000))]);
    const progress: [number, number][] = [];
    const answer = engine.validateCsv(bytes, form, (done, total) => progress.push([done, total]));
    expect(answer).toEqual(validateCsv(bytes, form, env));
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toEqual([bytes.length, bytes.length]);
  });

  it('refuses as the API does: too many rows (413), a wrong form (400), in the page’s language', () => {
    const over = Buffer.from('x\n'.repeat(CURRENT_LIMITS.maxRowsLive + 2));
    const refusal = (f: () => unknown, lang: 'en' | 'fr' = 'en') => {
      try {
        f();
      } catch (e) {
        return errorBody(e, lang);
      }
      throw new Error('not refused');
    };
    expect(refusal(() => engine.validateCsv(over, form))).toEqual({
      status: 413,
      code: 'LINE_LIMIT_EXCEEDED',
      message: expect.stringContaining('50000') as string,
      details: { limit: CURRENT_LIMITS.maxRowsLive, rows: CURRENT_LIMITS.maxRowsLive + 1 },
    });
    const fr = new Engine(shippedAsset(), '2026-11-22', 'fr');
    expect(refusal(() => fr.validateCsv(csv(1), { ...form, type: 'xyz' }), 'fr')).toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'type', message: "doit valoir l'une des valeurs: adf, jdr" }] },
    });
    expect(refusal(() => engine.validateBody({ type: 'adf' } as never, true))).toMatchObject({
      status: 400,
      code: 'INVALID_REQUEST',
    });
    expect(
      refusal(() => engine.importSheet(new Uint8Array(CURRENT_LIMITS.maxBytes + 1), form)),
    ).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(errorBody(new Error('boom'), 'en')).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
  });

  it('imports and validates bodies as the API does; strict_references is the page’s choice', () => {
    const bytes = csv(4);
    const imported = engine.importSheet(bytes, form);
    expect(imported.result).toEqual(importSheet(bytes, form, env));
    // Where each holder came from travels beside the answer: one sheet row per holder, after the header.
    expect(imported.located.sheet).toBe(form.filename);
    expect(imported.located.rows).toEqual([2, 3, 4, 5]);
    expect(imported.located.columns.NIR).toMatch(/^[A-Z]+$/);
    const body = validBody('jdr', 'training_organization', 2);
    (body.declarations as { transferable_skills: string[] }[])[0]!.transferable_skills = ['999999'];
    for (const strict of [true, false]) {
      const answer = engine.validateBody(body as never, strict);
      expect(answer).toEqual(validateDeclarations({ ...body, options: { strict_references: strict } }, env));
      // Strict, the unknown code is an error; lenient, not one (API.md §3c).
      expect(answer.errors.some((e) => e.code === 'INVALID_ROME_CODE')).toBe(strict);
    }
  });

  it('takes today as YYYY-MM-DD only', () => {
    expect(() => new Engine(shippedAsset(), '22/11/2026', 'en')).toThrow('YYYY-MM-DD');
  });
});
