import {
  CONDITION_WORDS,
  DECLARANTS,
  FILE_TYPES,
  findSpec,
  LANGS,
  localize,
  REFERENCE_LIST_TITLES,
  generateFile,
  resolveKind,
  type Declarant,
  type FileType,
} from '@ppfile/rules';
import { NIR_A, NIR_B, NIR_CORSICA, validBody } from '@ppfile/rules/testing/fixtures';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { dayToSerial } from './cells';
import { template, templateFileName, templateSheets } from './template';
import { ENV, importOf } from './testing/workbooks';
import { ReadBudget } from './unreadable';
import { XlsxWorkbook } from './xlsx-reader';
import { writeWorkbook, type CellInput } from './xlsx-writer';

const SPEC = findSpec('2026-02')!;
const KINDS = FILE_TYPES.flatMap((type) => DECLARANTS.map((declarant) => [type, declarant] as const));

function rowsOf(bytes: Buffer, sheetName: string): { row: number; texts: string[] }[] {
  const workbook = new XlsxWorkbook(bytes, new ReadBudget('en'));
  const out: { row: number; texts: string[] }[] = [];
  workbook.readSheet(
    workbook.sheets.find((s) => s.name === sheetName)!,
    (r) => {
      out.push({ row: r.row, texts: r.cells.map((c) => (c.cell.k === 'text' ? c.cell.v : `?${c.cell.k}`)) });
      return true;
    },
  );
  return out;
}

describe('template (API.md §14)', () => {
  it.each(KINDS)(
    '%s × %s: Declarations (names, French labels, formats, drop-downs) and Instructions (fr, en)',
    (type, declarant) => {
      const bytes = template(type, declarant, '2026-02');
      const columns = SPEC.tables[type].columns;
      const workbook = new XlsxWorkbook(bytes, new ReadBudget('en'));
      expect(workbook.sheets.map((s) => s.name)).toEqual(['Declarations', 'Instructions']);
      const rows = rowsOf(bytes, 'Declarations');
      expect(rows).toEqual([
        { row: 1, texts: columns.map((c) => c.name) },
        { row: 2, texts: columns.map((c) => c.labels.fr) },
      ]);

      const parts = unzipSync(bytes);
      const sheetXml = strFromU8(parts['xl/worksheets/sheet1.xml']!);
      const styles = strFromU8(parts['xl/styles.xml']!);
      expect(styles).toContain('formatCode="dd/mm/yyyy"');
      const colStyle = (i: number) =>
        /style="(\d)"/.exec(new RegExp(`<col min="${i + 1}"[^>]*>`).exec(sheetXml)![0])?.[1];
      columns.forEach((c, i) => {
        if (c.type === 'date') expect(colStyle(i)).toBe('1');
        else if (c.type === 'nir' || c.type === 'siret' || c.type === 'codes') expect(colStyle(i)).toBe('2');
        else expect(colStyle(i)).toBeUndefined();
      });
      const lists = [...sheetXml.matchAll(/sqref="([A-Z]+)3:\1(\d+)"><formula1>"([^"]*)"/g)].map((m) => [
        m[1],
        m[3],
      ]);
      const enums = columns
        .map((c, i) => ({ c, letter: String.fromCharCode(65 + (i % 26)).padStart(i >= 26 ? 2 : 1, 'A') }))
        .filter(({ c }) => c.type === 'enum' && c.presence[declarant] !== 'never');
      expect(lists).toEqual(enums.map(({ c, letter }) => [letter, c.values!.join(',')]));
      expect(sheetXml).toContain('state="frozen"');

      const instructions = rowsOf(bytes, 'Instructions').map((r) => r.texts[0]!);
      const french = instructions.findIndex((l) => l.startsWith('Modèle ppfile'));
      const english = instructions.findIndex((l) => l.startsWith('ppfile template'));
      expect(french).toBe(0);
      expect(english).toBeGreaterThan(french);
      for (const c of columns) {
        expect(instructions.filter((l) => l.startsWith(`${c.name} (`))).toEqual([
          expect.stringContaining(c.labels.fr),
          expect.stringContaining(c.labels.en),
        ]);
      }
      // Lists and conditions in libs/rules' own words (REFERENCE_LIST_TITLES, CONDITION_WORDS).
      for (const lang of LANGS) {
        const lines = instructions.slice(lang === 'fr' ? 0 : english, lang === 'fr' ? english : undefined);
        for (const c of columns) {
          const line = lines.find((l) => l.startsWith(`${c.name} (`))!;
          if (c.list) expect(line).toContain(localize(REFERENCE_LIST_TITLES[c.list], lang));
          const p = c.presence[declarant];
          if (p !== 'never' && p.when) expect(line).toContain(localize(CONDITION_WORDS[p.when], lang));
        }
      }
    },
  );

  it('is named ppfile_template_<type>_<declarant>_<version>.xlsx, and refuses an unknown kind', () => {
    expect(templateFileName('adf', 'employer', '2026-02')).toBe('ppfile_template_adf_employer_2026-02.xlsx');
    expect(() => template('adf', 'employer', '2025-01')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_SPEC_VERSION' }),
    );
    expect(() => template('xyz', 'employer')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('imported empty, it is found (header row 1, labels skipped) and holds no row', () => {
    const r = importOf(template('jdr', 'training_organization'), {
      type: 'jdr',
      declarant: 'training_organization',
    });
    expect(r.header_row).toBe(1);
    expect(r.mapping.every((m) => m.how === 'name')).toBe(true);
    expect(r.rows_read).toBe(0);
    expect(r.validation.warnings.map((w) => [w.code, w.cell])).toEqual([
      ['NO_DATA_ROWS', 'Declarations!1:1'],
    ]);
  });
});

// ---- property: template → filled with valid data → import → generate = generate of the JSON ----

type Json = Record<string, unknown>;
const TODAY_OFFSET = Math.round((Date.UTC(2026, 10, 22) - Date.UTC(2025, 0, 1)) / 86_400_000);
const dayOf = (offset: number): number => {
  const d = new Date(Date.UTC(2025, 0, 1) + offset * 86_400_000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
};
const iso = (day: number) =>
  `${Math.floor(day / 10000)}-${String(Math.floor(day / 100) % 100).padStart(2, '0')}-${String(day % 100).padStart(2, '0')}`;
const fr = (day: number) =>
  `${String(day % 100).padStart(2, '0')}/${String(Math.floor(day / 100) % 100).padStart(2, '0')}/${Math.floor(day / 10000)}`;

/** How a person may have typed a value: the choices a filled template is made of. */
interface Typing {
  date1904: boolean;
  dateAs: 'cell' | 'fr' | 'iso';
  nirAsNumber: boolean;
  booleanAs: 'word' | 'cell';
  codeSeparator: string;
  lowerEnums: boolean;
}

const typingArb: fc.Arbitrary<Typing> = fc.record({
  date1904: fc.boolean(),
  dateAs: fc.constantFrom('cell' as const, 'fr' as const, 'iso' as const),
  nirAsNumber: fc.boolean(),
  booleanAs: fc.constantFrom('word' as const, 'cell' as const),
  codeSeparator: fc.constantFrom('/', ', ', ';', '\n'),
  lowerEnums: fc.boolean(),
});

interface Plan {
  type: FileType;
  declarant: Declarant;
  declarations: { holders: number; start: number; length: number; withTraining: boolean; mode: number }[];
  names: string[];
}

const planArb: fc.Arbitrary<Plan> = fc.record({
  type: fc.constantFrom<FileType>('adf', 'jdr'),
  declarant: fc.constantFrom<Declarant>('employer', 'training_organization'),
  declarations: fc.array(
    fc.record({
      holders: fc.integer({ min: 1, max: 4 }),
      start: fc.integer({ min: 250, max: TODAY_OFFSET - 10 }),
      length: fc.integer({ min: 0, max: 5 }),
      withTraining: fc.boolean(),
      mode: fc.integer({ min: 0, max: 2 }),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  names: fc.array(fc.constantFrom('DUPONT', 'BÉRANGER', 'GARÇON', "N'DIAYE", 'MÜLLER-ÉTIENNE'), {
    minLength: 12,
    maxLength: 12,
  }),
});

function bodyOf(plan: Plan): Json {
  const base = validBody(plan.type, plan.declarant, 1);
  const template = (base.declarations as Json[])[0]!;
  const nirs = [NIR_A, NIR_B, NIR_CORSICA];
  let n = 0;
  const declarations = plan.declarations.map((p, d) => {
    const start = dayOf(p.start);
    const end = dayOf(p.start + p.length);
    const training = {
      ...(template.training as Json),
      start_date: iso(start),
      end_date: iso(end),
      delivery_mode: ['PRESENTIEL', 'A_DISTANCE', 'MIXTE'][p.mode],
    };
    const decl: Json = { ...template, id: `S-${d}`, reference: `Session ${d}`, training };
    if (plan.type === 'jdr' && !p.withTraining && plan.declarant === 'employer') delete decl.training;
    decl.holders = Array.from({ length: p.holders }, () => {
      const h = { ...((template.holders as Json[])[0] as Json) };
      h.unique_id = `S-${d}-U${n}`;
      h.nir = nirs[n % 3];
      h.birth_name = plan.names[n % plan.names.length];
      h.validity_start = iso(end);
      h.validity_end = iso(dayOf(p.start + p.length + 700));
      n++;
      return h;
    });
    return decl;
  });
  return { ...base, declarations };
}

/** The template's Declarations rows for a body, typed as `typing` says. */
function filledRows(body: Json, type: FileType, typing: Typing): CellInput[][] {
  const columns = SPEC.tables[type].columns;
  const rows: CellInput[][] = [];
  const date = (v: string): CellInput => {
    const day = Number(v.replaceAll('-', ''));
    return typing.dateAs === 'cell'
      ? { date: dayToSerial(day, typing.date1904) }
      : typing.dateAs === 'fr'
        ? fr(day)
        : v;
  };
  const bool = (v: boolean): CellInput => (typing.booleanAs === 'cell' ? v : v ? 'OUI' : 'non');
  for (const decl of body.declarations as Json[]) {
    for (const holder of decl.holders as Json[]) {
      rows.push(
        columns.map((c): CellInput => {
          const [head, tail] = c.json.path.split('.') as [string, string | undefined];
          if (c.json.kind === 'training_presence') return bool(decl.training !== undefined);
          if (c.json.kind === 'employer_presence') return null;
          const owner = c.level === 'holder' ? holder : decl;
          const value = tail === undefined ? owner[head] : (owner[head] as Json | undefined)?.[tail];
          if (value === undefined || value === null) return null;
          switch (c.json.kind) {
            case 'date':
              return date(value as string);
            case 'boolean':
              return bool(value as boolean);
            case 'nir':
              return typing.nirAsNumber && /^\d+$/.test(value as string)
                ? Number(value)
                : { text: value as string };
            case 'codes':
              return Array.isArray(value) ? value.join(typing.codeSeparator) : (value as string);
            case 'enum':
              return typing.lowerEnums ? (value as string).toLowerCase() : (value as string);
            default:
              return value as string;
          }
        }),
      );
    }
  }
  return rows;
}

describe('property: a filled template imports into the body that generates the JSON’s bytes', () => {
  it('for every kind and every way of typing the cells', () => {
    const env = { ...ENV, generationDay: 20261122, randomHex: () => 'abcdef01' };
    fc.assert(
      fc.property(planArb, typingArb, (plan, typing) => {
        const body = bodyOf(plan);
        const expected = generateFile(body, env).content;
        const input = templateSheets(resolveKind(plan, 'en'));
        input.date1904 = typing.date1904;
        input.sheets[0]!.rows.push(...filledRows(body, plan.type, typing));
        const result = importOf(writeWorkbook(input), { type: plan.type, declarant: plan.declarant });
        expect(result.issues).toEqual([]);
        expect(result.validation.errors).toEqual([]);
        expect(result.declarations).toBe(plan.declarations.length);
        expect(generateFile(result.body, env).content.equals(expected)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
