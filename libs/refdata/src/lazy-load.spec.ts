import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  describeSpec,
  findSpec,
  generateFile,
  searchReferences,
  validateCsv,
  validateDeclarations,
  type ReferenceLists,
} from '@ppfile/rules';
import { REFERENCE_LIST_NAMES, type ReferenceListName } from '@ppfile/rules/references';
import { FORMACODES, NSF_CODES, RS_CODES, validBody } from '@ppfile/rules/testing/fixtures';
import { ReferenceDataError } from './errors';
import { readListCodes, readListFile } from './list-file';
import { clearReferenceCache, listsRead, loadReferenceLists } from './load';
import { readManifest } from './manifest';
import { ReferenceDirectory } from './reference-directory';

/**
 * The lists as a command line run reads them (`lazy`: a list file when first needed, its codes only
 * for a validation) against the lists as a server reads them (`eager`): the same answers, and a
 * list a file does not use is never read (issue 35, "The CLI's validate").
 */
const SPEC = '2026-02';
const SHIPPED = path.resolve(__dirname, '../../../reference-data');
const CLI_FIXTURES = path.resolve(__dirname, '../../../test/fixtures/cli');
const PEER_CSV = path.resolve(
  __dirname,
  '../../../test/fixtures/peer-vectors/certpilot/negative-employer-adf-as-generated.csv',
);
const TODAY = 20261122;

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ppfile-refdata-lazy-'));
});
afterEach(() => {
  clearReferenceCache();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The shipped lists in a directory of their own (each mode caches per directory). */
function copyOfShipped(name: string): string {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(SHIPPED, SPEC), path.join(dir, SPEC), { recursive: true });
  return dir;
}

/** Eager and lazy lists of two copies of the same directory, so that neither reads the other's cache. */
function bothModes(): { eager: ReferenceLists; lazy: ReferenceLists } {
  return {
    eager: loadReferenceLists(copyOfShipped('eager'), SPEC, 'eager'),
    lazy: loadReferenceLists(copyOfShipped('lazy'), SPEC, 'lazy'),
  };
}

type Json = Record<string, unknown>;

/** Bodies that ask every list every question: known, unknown, malformed codes; certifying with RS. */
function bodies(): Json[] {
  const out: Json[] = [];
  for (const type of ['adf', 'jdr'] as const)
    for (const declarant of ['employer', 'training_organization'] as const)
      out.push(validBody(type, declarant, 3));
  const edit = (base: Json, change: (d: Json & { training: Json }) => void): Json => {
    const body = structuredClone(base) as { declarations: (Json & { training: Json })[] };
    change(body.declarations[0]!);
    return body;
  };
  const of = validBody('adf', 'training_organization', 3);
  out.push(
    edit(of, (d) => (d.transferable_skills = ['115650', '999999', '12345', '400635'])),
    edit(of, (d) => (d.training.formacodes = [...FORMACODES.slice(0, 2), '99999', '4282'])),
    edit(of, (d) => (d.training.nsf_codes = [NSF_CODES[1], '999', '999x', '311u', '34'])),
    edit(of, (d) => {
      d.training.certifying = true;
      d.training.certification_code = RS_CODES[0];
    }),
    edit(of, (d) => {
      d.training.certifying = true;
      d.training.certification_code = 'RS9999999';
    }),
  );
  return out;
}

/** The CSV files of the fixtures, and each body as the generator writes it (with the eager lists). */
interface CsvFixture {
  name: string;
  bytes: Buffer;
  type: string;
  declarant: string;
}

function csvFiles(eager: ReferenceLists): CsvFixture[] {
  const files: CsvFixture[] = [
    {
      name: 'of-adf.csv',
      bytes: fs.readFileSync(path.join(CLI_FIXTURES, 'of-adf.csv')),
      type: 'adf',
      declarant: 'training_organization',
    },
    { name: 'certpilot', bytes: fs.readFileSync(PEER_CSV), type: 'adf', declarant: 'employer' },
  ];
  // The valid bodies as the generator writes them.
  bodies().forEach((body, i) => {
    let content: Buffer;
    try {
      content = generateFile(body, { refs: eager, today: TODAY, randomHex: () => '0'.repeat(8) }).content;
    } catch {
      return; // a body with wrong codes makes no file: the cells below put them in one
    }
    files.push({
      name: `body ${i}`,
      bytes: content,
      type: body.type as string,
      declarant: body.declarant as string,
    });
  });
  // The CLI's fixture with known, unknown and malformed codes in each list's column.
  const [header, ...rows] = files[0]!.bytes.toString('utf8').split('\r\n');
  const names = header!.split('|');
  const withCells = (cells: Record<string, string>): Buffer => {
    const edited = rows.map((row) => {
      if (row === '') return row;
      const values = row.split('|');
      for (const [name, value] of Object.entries(cells)) values[names.indexOf(name)] = value;
      return values.join('|');
    });
    return Buffer.from([header, ...edited].join('\r\n'));
  };
  const variants: Record<string, string>[] = [
    { COMPETENCE_TRANSFERABLE: '115650/999999/12345/400635' },
    { DOMAINE_FORMATION: `${FORMACODES[0]}/99999/4282` },
    { SPECIALITE_FORMATION: `${NSF_CODES[1]}/999/999x/311u/34` },
    { FORMATION_CERTIFIANTE: 'OUI', CERTIFICATION_VISEE: RS_CODES[0]! },
    { FORMATION_CERTIFIANTE: 'OUI', CERTIFICATION_VISEE: 'RS9999999' },
    { FORMATION_CERTIFIANTE: 'OUI', CERTIFICATION_VISEE: 'RSX' },
  ];
  variants.forEach((cells, i) =>
    files.push({
      name: `of-adf.csv, variant ${i}`,
      bytes: withCells(cells),
      type: 'adf',
      declarant: 'training_organization',
    }),
  );
  return files;
}

describe('lazy reference lists (a command line run) against eager ones (a server)', () => {
  it('answer every membership question alike: each code of each list, and codes absent from it', () => {
    const { eager, lazy } = bothModes();
    for (const name of REFERENCE_LIST_NAMES) {
      expect([lazy[name].source, lazy[name].version, lazy[name].complete]).toEqual([
        eager[name].source,
        eager[name].version,
        eager[name].complete,
      ]);
      for (const code of eager[name].entries.keys())
        if (!lazy[name].has(code)) throw new Error(`${name} ${code}`);
      for (const code of ['000000', '99999', '999x', 'RS0', '', 'RS5635 ', ' 115650'])
        expect(lazy[name].has(code)).toBe(eager[name].has(code));
    }
    expect(listsRead(lazy)).toEqual({ rome: 'codes', formacode: 'codes', nsf: 'codes', rs: 'codes' });
    expect([...lazy.nsfGroups].sort()).toEqual([...eager.nsfGroups].sort());
    // Labels when asked for: then the same maps as eager ones.
    for (const name of REFERENCE_LIST_NAMES) expect(lazy[name].entries).toEqual(eager[name].entries);
    expect(listsRead(lazy)).toEqual({ rome: 'entries', formacode: 'entries', nsf: 'entries', rs: 'entries' });
  });

  it('give the same validation answers on the fixtures, byte for byte: bodies, the CSV files, the format description', () => {
    const { eager, lazy } = bothModes();
    const spec = findSpec(SPEC)!;
    for (const body of bodies()) {
      for (const strict of [true, false]) {
        const raw = { ...body, options: { strict_references: strict } };
        expect(JSON.stringify(validateDeclarations(raw, { refs: lazy, today: TODAY }))).toBe(
          JSON.stringify(validateDeclarations(raw, { refs: eager, today: TODAY })),
        );
      }
    }
    const files = csvFiles(eager);
    expect(files.length).toBeGreaterThanOrEqual(12);
    const codes = new Set<string>();
    for (const file of files) {
      for (const strict of [true, false]) {
        const req = {
          type: file.type,
          declarant: file.declarant,
          strict_references: strict,
          filename: 'ppfile_adf_20261122_00000000.csv',
        };
        const answer = validateCsv(file.bytes, req, { refs: lazy, today: TODAY });
        for (const issue of [...answer.errors, ...answer.warnings]) codes.add(issue.code);
        const lazyAnswer = JSON.stringify(answer);
        expect(lazyAnswer).toBe(JSON.stringify(validateCsv(file.bytes, req, { refs: eager, today: TODAY })));
      }
    }
    // The files ask every list about known, unknown and malformed codes.
    for (const code of [
      'INVALID_ROME_CODE',
      'INVALID_FORMACODE',
      'INVALID_NSF_CODE',
      'INVALID_RS_CODE',
      'REFERENCE_NOT_VERIFIED',
    ])
      expect(codes).toContain(code);
    expect(JSON.stringify(describeSpec(spec, lazy))).toBe(JSON.stringify(describeSpec(spec, eager)));
    for (const name of REFERENCE_LIST_NAMES)
      expect(searchReferences(lazy, name, { q: 'sé', limit: 20 })).toEqual(
        searchReferences(eager, name, { q: 'sé', limit: 20 }),
      );
  });

  it('a list a file does not use is never read: a broken rs.tsv fails an eager load, not a lazy validation without RS codes', () => {
    const dir = copyOfShipped('broken-rs');
    // Five lines, as the manifest says, the second not a code.
    const rs = fs.readFileSync(path.join(dir, SPEC, 'rs.tsv'), 'utf8').split('\n');
    rs[1] = 'not a code\tat all';
    fs.writeFileSync(path.join(dir, SPEC, 'rs.tsv'), rs.join('\n'));
    const csv = fs.readFileSync(path.join(CLI_FIXTURES, 'of-adf.csv'));
    const req = {
      type: 'adf',
      declarant: 'training_organization',
      filename: 'ppfile_adf_20261122_00000000.csv',
    };
    const expected = validateCsv(csv, req, { refs: loadReferenceLists(SHIPPED, SPEC), today: TODAY });

    expect(() => loadReferenceLists(dir, SPEC, 'eager')).toThrow(ReferenceDataError);
    const lazy = new ReferenceDirectory(dir, 'lazy').lists(SPEC);
    expect(validateCsv(csv, req, { refs: lazy, today: TODAY })).toEqual(expected);
    expect(expected.valid).toBe(true);
    expect(listsRead(lazy)).toEqual({ rome: 'codes', formacode: 'codes', nsf: 'codes', rs: 'none' });

    // A file that names an RS fiche reads rs.tsv, and fails as the eager load failed.
    const eagerError = (() => {
      try {
        loadReferenceLists(dir, SPEC, 'eager');
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(eagerError).toMatch(/rs\.tsv, line 2/);
    const certifying = validBody('adf', 'training_organization', 1) as {
      declarations: { training: Json }[];
    };
    certifying.declarations[0]!.training.certifying = true;
    certifying.declarations[0]!.training.certification_code = 'RS5199';
    expect(() => validateDeclarations(certifying, { refs: lazy, today: TODAY })).toThrow(eagerError);
  });

  it('reads the codes of a list file without its labels, and fails on a bad file exactly as the full parse does', () => {
    const folder = path.join(copyOfShipped('codes'), SPEC);
    const manifest = readManifest(path.dirname(folder), SPEC);
    const file = (name: ReferenceListName) => path.join(folder, manifest.lists[name].file);
    for (const name of REFERENCE_LIST_NAMES) {
      const count = manifest.lists[name].count;
      expect([...readListCodes(file(name), name, count)]).toEqual([
        ...readListFile(file(name), name, count).keys(),
      ]);
    }
    const failure = (fn: () => unknown): string => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(ReferenceDataError);
        return (e as Error).message;
      }
      throw new Error('did not throw');
    };
    const rs = file('rs');
    const cases: [string, string, number][] = [
      ['count', fs.readFileSync(rs, 'utf8'), 6],
      ['malformed code', `${fs.readFileSync(rs, 'utf8')}12345\tfive digits\n`, 6],
      ['no tab', `${fs.readFileSync(rs, 'utf8')}RS12\n`, 6],
      ['no tab on a line before a tab', 'RS12\nRS13\tlabel\n', 2],
      ['duplicate', `${fs.readFileSync(rs, 'utf8')}RS5199\tagain\n`, 6],
      ['empty line', `${fs.readFileSync(rs, 'utf8')}\n`, 6],
      ['BOM', `\ufeff${fs.readFileSync(rs, 'utf8')}`, 5],
      ['code past ASCII', 'RSé1\tlabel\n', 1],
    ];
    for (const [what, text, count] of cases) {
      fs.writeFileSync(rs, text);
      const full = failure(() => readListFile(rs, 'rs', count));
      expect([what, failure(() => readListCodes(rs, 'rs', count))]).toEqual([what, full]);
    }
    // As the full parse: CRLF line endings and a last line without LF are read.
    fs.writeFileSync(rs, 'RS12\tone\r\nRS13\ttwo');
    expect([...readListCodes(rs, 'rs', 2)]).toEqual(['RS12', 'RS13']);
    expect([...readListFile(rs, 'rs', 2).keys()]).toEqual(['RS12', 'RS13']);
    fs.rmSync(rs);
    expect(failure(() => readListCodes(rs, 'rs', 2))).toBe(failure(() => readListFile(rs, 'rs', 2)));
  });

  it('an eager load after a lazy one reads every list; a failed eager load is not kept', () => {
    const dir = copyOfShipped('both');
    const lazy = loadReferenceLists(dir, SPEC, 'lazy');
    expect(listsRead(lazy)).toEqual({ rome: 'none', formacode: 'none', nsf: 'none', rs: 'none' });
    expect(loadReferenceLists(dir, SPEC, 'eager')).toBe(lazy);
    expect(listsRead(lazy)).toEqual({ rome: 'entries', formacode: 'entries', nsf: 'entries', rs: 'entries' });

    const broken = copyOfShipped('broken');
    const rs = path.join(broken, SPEC, 'rs.tsv');
    const good = fs.readFileSync(rs);
    fs.writeFileSync(rs, 'broken\n');
    expect(() => loadReferenceLists(broken, SPEC, 'eager')).toThrow(ReferenceDataError);
    fs.writeFileSync(rs, good);
    expect(loadReferenceLists(broken, SPEC, 'eager').rs.has('RS5635')).toBe(true);
  });
});
