/**
 * Property tests: for arbitrary VALID bodies of the four kinds, generateFile produces exactly the
 * rows the body describes (API.md §3–§5 normalizations), the file validates as an official CSV of
 * its kind, and generation is deterministic. And for a valid body with a `|` or a line break put
 * inside one text value, generation is refused with INVALID_CHARACTER on that value
 * (SERVICE.md §2.5).
 */
import { REQUEST_ERROR_STATUS } from '@ppfile/contract';
import fc from 'fast-check';
import {
  DELIVERY_MODES,
  findSpec,
  generateFile,
  JDR_TYPES,
  OBTENTION_MODES,
  RequestError,
  TRAINER_QUALIFICATIONS,
  validateCsv,
  type Declarant,
  type FileType,
  type Issue,
} from '@ppfile/rules';
import { hasForbiddenCharacter, trimWhiteSpace } from '@ppfile/rules/values/text';
import { completeReferences, GOLDEN_CODES } from './support/reference-lists';

const TODAY = 20261122;
const refs = completeReferences();
const SPEC = findSpec('2026-02')!;
const RUNS = 200;

type Json = Record<string, unknown>;
type Cells = Record<string, string>;
interface Case {
  type: FileType;
  declarant: Declarant;
  body: Json;
  /** The expected row of each holder, column → cell, derived from the plan the body was built from. */
  rows: Cells[];
}

// ---- calendar: day offsets from 2024-01-01 ------------------------------------------------------

const EPOCH = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const TODAY_OFFSET = (Date.UTC(2026, 10, 22) - EPOCH) / DAY_MS;

function ymd(offset: number): [number, number, number] {
  const d = new Date(EPOCH + offset * DAY_MS);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}
const p2 = (n: number) => String(n).padStart(2, '0');
const frDate = (offset: number) => {
  const [y, m, d] = ymd(offset);
  return `${p2(d)}/${p2(m)}/${y}`;
};
const isoDate = (offset: number) => {
  const [y, m, d] = ymd(offset);
  return `${y}-${p2(m)}-${p2(d)}`;
};
/** JSON accepts both forms (SERVICE.md §2.1); the file always holds dd/mm/yyyy. */
const dateInput = (offset: number, iso: boolean) => (iso ? isoDate(offset) : frDate(offset));

// ---- text ---------------------------------------------------------------------------------------

const UPPER = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸÆŒ'];
const LOWER = [...'abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿæœ'];
const DIGITS = [...'0123456789'];

const word = (chars: string[], max: number) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: 2, maxLength: max });

/**
 * A value as a person would type it: starts and ends with a letter (never =, +, - or @), maybe
 * decomposed (NFD) and padded with spaces. `canonical` is what the file must hold (NFC, trimmed).
 */
interface Typed {
  input: string;
  canonical: string;
}
function typed(core: fc.Arbitrary<string>): fc.Arbitrary<Typed> {
  return fc
    .record({
      core,
      nfd: fc.boolean(),
      left: fc.constantFrom('', ' ', '  '),
      right: fc.constantFrom('', ' ', '   '),
    })
    .map(({ core, nfd, left, right }) => ({
      input: `${left}${nfd ? core.normalize('NFD') : core}${right}`,
      canonical: core.normalize('NFC'),
    }));
}

/** Birth names: upper-case words with accents joined by space, apostrophe or hyphen; ≤ 30 characters. */
const birthName = typed(
  fc
    .tuple(
      word(UPPER, 6),
      fc.array(fc.tuple(fc.constantFrom(' ', "'", '-'), word(UPPER, 6)), { maxLength: 3 }),
    )
    .map(([first, rest]) => first + rest.map(([sep, w]) => sep + w).join('')),
);

/** Free text (training names, references, results): mixed case, digits, punctuation inside. */
function freeText(maxWords: number): fc.Arbitrary<Typed> {
  return typed(
    fc
      .tuple(
        word(UPPER, 8),
        fc.array(
          fc.tuple(
            fc.constantFrom(' ', ' ', "'", '-', ' – ', ', ', ' / ', ' (', ') ', ' : ', ' & '),
            word([...LOWER, ...UPPER, ...DIGITS], 10),
          ),
          { maxLength: maxWords },
        ),
      )
      .map(([first, rest]) => first + rest.map(([sep, w]) => sep + w).join('')),
  );
}

/** Identifiers: never starting with =, +, - or @ (FORMULA_NOT_ALLOWED under the default formula_policy). */
const token = fc
  .tuple(
    fc.constantFrom(...'ABCDEFGHJKMNPQRSTVWXYZ0123456789'),
    fc.string({ unit: fc.constantFrom(...'ABCDEFGHJKMNPQRSTVWXYZ0123456789-_'), maxLength: 11 }),
  )
  .map(([first, rest]) => first + rest);

// ---- NIR and SIRET ------------------------------------------------------------------------------

function nirKey(nir13: string): string {
  const numeric = nir13.replace('2A', '19').replace('2B', '18');
  return String(97 - Number(BigInt(numeric) % 97n)).padStart(2, '0');
}

/**
 * A possible NIR built from valid parts (sex digit, year, month incl. the INSEE 20–42/50–99
 * ranges, département incl. 2A/2B, commune, order ≠ 000), optionally with its key and separators.
 */
const nirArb: fc.Arbitrary<Typed> = fc
  .record({
    sex: fc.constantFrom('1', '2', '3', '4', '7', '8'),
    year: fc.integer({ min: 0, max: 99 }),
    month: fc.oneof(
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 20, max: 42 }),
      fc.integer({ min: 50, max: 99 }),
    ),
    dep: fc.oneof(fc.integer({ min: 1, max: 99 }).map(p2), fc.constantFrom('2A', '2B')),
    commune: fc.integer({ min: 0, max: 999 }),
    order: fc.integer({ min: 1, max: 999 }),
    withKey: fc.boolean(),
    separator: fc.constantFrom('', ' ', '.', '-'),
  })
  .map((p) => {
    const parts = [
      p.sex,
      p2(p.year),
      p2(p.month),
      p.dep,
      String(p.commune).padStart(3, '0'),
      String(p.order).padStart(3, '0'),
    ];
    const nir13 = parts.join('');
    if (p.withKey) parts.push(nirKey(nir13));
    return { input: parts.join(p.separator), canonical: nir13 };
  });

/** 13 random digits and the Luhn check digit (INSEE SIRET rule). */
const siretArb: fc.Arbitrary<Typed> = fc
  .record({
    digits: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 }),
    spaced: fc.boolean(),
  })
  .map(({ digits, spaced }) => {
    let sum = 0;
    // The check digit sits at index 0 from the right; the digits at odd indexes are doubled.
    for (let i = 0; i < 13; i++) {
      let d = digits[12 - i]!;
      if (i % 2 === 0) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    const siret = digits.join('') + String((10 - (sum % 10)) % 10);
    return {
      input: spaced
        ? `${siret.slice(0, 3)} ${siret.slice(3, 6)} ${siret.slice(6, 9)} ${siret.slice(9)}`
        : siret,
      canonical: siret,
    };
  });

// ---- codes --------------------------------------------------------------------------------------

const ROME = [...GOLDEN_CODES.rome];
const FORMACODES = [...GOLDEN_CODES.formacode];
const NSF = [...GOLDEN_CODES.nsf];
const RS = [...GOLDEN_CODES.rs];

/** An enumeration value in any case: the generator upper-cases it (ENUM_UPPERCASED). */
const anyCase = (values: readonly string[]) =>
  fc
    .record({ v: fc.constantFrom(...values), lower: fc.boolean() })
    .map(({ v, lower }) => ({ input: lower ? v.toLowerCase() : v, canonical: v }));

const rsCode = fc
  .record({ code: fc.constantFrom(...RS), style: fc.constantFrom('RS', 'rs', 'rs ', 'Rs') })
  .map(({ code, style }) => ({ input: style + code.slice(2), canonical: code }));

const nsfCodes = (min: number) =>
  fc
    .record({ codes: fc.shuffledSubarray(NSF, { minLength: min, maxLength: 3 }), upper: fc.boolean() })
    .map(({ codes, upper }) => ({
      input: codes.map((c) => (upper ? c.toUpperCase() : c)),
      canonical: codes.join('/'),
    }));

// ---- bodies -------------------------------------------------------------------------------------

interface TrainingPlan {
  json: Json;
  cells: Cells;
  end: number;
}

function trainingArb(declarant: Declarant): fc.Arbitrary<TrainingPlan> {
  const isOf = declarant === 'training_organization';
  return fc
    .record({
      name: freeText(8),
      start: fc.integer({ min: 0, max: TODAY_OFFSET }),
      length: fc.integer({ min: 0, max: 20 }),
      startIso: fc.boolean(),
      endIso: fc.boolean(),
      mode: fc.option(anyCase(DELIVERY_MODES), { nil: undefined }),
      qualification: fc.option(fc.constantFrom(...TRAINER_QUALIFICATIONS), { nil: undefined }),
      certifying: isOf ? fc.boolean() : fc.option(fc.boolean(), { nil: undefined }),
      rs: isOf ? rsCode : fc.option(rsCode, { nil: undefined }),
      formacodes: fc.shuffledSubarray(FORMACODES, { minLength: isOf ? 1 : 0, maxLength: 5 }),
      nsf: nsfCodes(isOf ? 1 : 0),
    })
    .map((p) => {
      const end = Math.min(p.start + p.length, TODAY_OFFSET);
      const json: Json = {
        name: p.name.input,
        start_date: dateInput(p.start, p.startIso),
        end_date: dateInput(end, p.endIso),
      };
      const cells: Cells = {
        NOM_FORMATION: p.name.canonical,
        DATE_DEBUT_FORMATION: frDate(p.start),
        DATE_FIN_FORMATION: frDate(end),
      };
      if (p.mode) {
        json.delivery_mode = p.mode.input;
        cells.MODALITE_DISPENSE = p.mode.canonical;
      }
      if (p.qualification) {
        json.trainer_qualification = p.qualification;
        cells.QUALIFICATION_FORMATEUR = p.qualification;
      }
      if (p.certifying !== undefined) {
        json.certifying = p.certifying;
        cells.FORMATION_CERTIFIANTE = p.certifying ? 'OUI' : 'NON';
      }
      if (p.certifying === true) {
        if (p.rs) {
          json.certification_code = p.rs.input;
          cells.CERTIFICATION_VISEE = p.rs.canonical;
        }
      } else {
        // Not certifying, or (employer) not stated: Formacodes and NSF codes are allowed (API.md §3b).
        if (p.formacodes.length > 0) {
          json.formacodes = p.formacodes;
          cells.DOMAINE_FORMATION = p.formacodes.join('/');
        }
        if (p.nsf.input.length > 0) {
          json.nsf_codes = p.nsf.input;
          cells.SPECIALITE_FORMATION = p.nsf.canonical;
        }
      }
      return { json, cells, end };
    });
}

interface HolderPlan {
  uid: string;
  nir: Typed;
  name: Typed;
  siret?: Typed;
  explicitAgreement: boolean;
  employerRef?: Typed;
  validityGap: number;
  validityLength?: number;
  startIso: boolean;
  endIso: boolean;
  result?: Typed;
  mention?: Typed;
  proofUrl?: string;
  proofId?: string;
}

const proofUrl = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'HTTPS'),
    host: fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 2, maxLength: 12 }),
    path: fc.array(
      fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'),
        minLength: 1,
        maxLength: 10,
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ scheme, host, path }) => `${scheme}://${host}.example.org/${path.join('/')}`);

function holderArb(declarant: Declarant, jdr: boolean): fc.Arbitrary<HolderPlan> {
  const isOf = declarant === 'training_organization';
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const none = fc.constant(undefined);
  return fc.record({
    uid: token,
    nir: nirArb,
    name: birthName,
    siret: isOf ? opt(siretArb) : none,
    explicitAgreement: fc.boolean(),
    employerRef: opt(freeText(3)),
    validityGap: fc.integer({ min: 0, max: 90 }),
    validityLength: opt(fc.integer({ min: 0, max: 1900 })),
    startIso: fc.boolean(),
    endIso: fc.boolean(),
    result: jdr ? opt(freeText(12)) : none,
    mention: jdr ? opt(freeText(3)) : none,
    proofUrl: jdr ? opt(proofUrl) : none,
    proofId: jdr ? opt(token) : none,
  });
}

interface DeclarationPlan {
  id: string;
  reference: Typed;
  skills?: string[];
  training?: TrainingPlan;
  /** jdr without training: the day validity dates are counted from. */
  anchor: number;
  certificate?: { type: Typed; name: Typed; option?: Typed; mode?: Typed };
  holders: HolderPlan[];
}

function declarationArb(type: FileType, declarant: Declarant): fc.Arbitrary<DeclarationPlan> {
  const isOf = declarant === 'training_organization';
  const jdr = type === 'jdr';
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  return fc.record({
    id: token,
    reference: freeText(10),
    skills: isOf
      ? fc.shuffledSubarray(ROME, { minLength: 3, maxLength: 10 })
      : opt(fc.shuffledSubarray(ROME, { minLength: 0, maxLength: 10 })),
    training: jdr ? opt(trainingArb(declarant)) : trainingArb(declarant),
    anchor: fc.integer({ min: 0, max: TODAY_OFFSET }),
    certificate: jdr
      ? fc.record({
          type: anyCase(JDR_TYPES),
          name: freeText(10),
          option: opt(freeText(6)),
          mode: opt(anyCase(OBTENTION_MODES)),
        })
      : fc.constant(undefined),
    // size 'max': the whole 1–20 range, not only the small arrays fast-check favours by default
    holders: fc.array(holderArb(declarant, jdr), { minLength: 1, maxLength: 20, size: 'max' }),
  });
}

function buildCase(type: FileType, declarant: Declarant, plans: DeclarationPlan[]): Case {
  const isOf = declarant === 'training_organization';
  const rows: Cells[] = [];
  const declarations = plans.map((plan, d) => {
    // Ids made unique by position: the same ID_DECLARATION twice would be one declaration.
    const id = `D${d}-${plan.id}`;
    const decl: Json = { id, reference: plan.reference.input };
    const declCells: Cells = { ID_DECLARATION: id, REFERENCE_DECLARATION: plan.reference.canonical };
    if (plan.skills) {
      decl.transferable_skills = plan.skills;
      declCells.COMPETENCE_TRANSFERABLE = plan.skills.join('/');
    }
    if (plan.certificate) {
      const c = plan.certificate;
      const cert: Json = { type: c.type.input, name: c.name.input };
      declCells.TYPE_JDR = c.type.canonical;
      declCells.NOM_JDR = c.name.canonical;
      if (c.option) {
        cert.option_specialty = c.option.input;
        declCells.NOM_OPTION_SPECIALITE = c.option.canonical;
      }
      if (c.mode) {
        cert.obtention_mode = c.mode.input;
        declCells.MODE_OBTENTION = c.mode.canonical;
      }
      decl.certificate = cert;
    }
    if (type === 'jdr') declCells.PRESENCE_FORMATION = plan.training ? 'OUI' : 'NON';
    if (plan.training) {
      decl.training = plan.training.json;
      Object.assign(declCells, plan.training.cells);
    }
    // Validity starts on or after the training end (API.md §3b date order).
    const anchor = plan.training ? plan.training.end : plan.anchor;
    decl.holders = plan.holders.map((h, k) => {
      const uid = `U${d}-${k}-${h.uid}`;
      const vStart = anchor + h.validityGap;
      const holder: Json = {
        unique_id: uid,
        nir: h.nir.input,
        birth_name: h.name.input,
        validity_start: dateInput(vStart, h.startIso),
      };
      const cells: Cells = {
        ...declCells,
        ID_UNIQUE_PARTENAIRE: uid,
        NIR: h.nir.canonical,
        NOM_TITULAIRE: h.name.canonical,
        DATE_DEBUT_VALIDITE: frDate(vStart),
      };
      if (h.validityLength !== undefined) {
        holder.validity_end = dateInput(vStart + h.validityLength, h.endIso);
        cells.DATE_FIN_VALIDITE = frDate(vStart + h.validityLength);
      }
      if (isOf) {
        cells.PRESENCE_EMPLOYEUR = h.siret ? 'OUI' : 'NON';
        if (h.explicitAgreement) holder.employer_agreement = h.siret !== undefined;
        if (h.siret) {
          holder.employer_siret = h.siret.input;
          cells.SIRET_EMPLOYEUR = h.siret.canonical;
        }
      }
      // A training organization gives REFERENCE_EMPLOYEUR only with the employer (API.md §3b).
      if (h.employerRef && (!isOf || h.siret)) {
        holder.employer_reference = h.employerRef.input;
        cells.REFERENCE_EMPLOYEUR = h.employerRef.canonical;
      }
      if (h.result) {
        holder.result = h.result.input;
        cells.RESULTAT_OBTENU = h.result.canonical;
      }
      if (h.mention) {
        holder.mention = h.mention.input;
        cells.MENTION_OBTENUE = h.mention.canonical;
      }
      if (h.proofUrl) {
        holder.proof_url = h.proofUrl;
        cells.LIEN_PREUVE = h.proofUrl;
      }
      if (h.proofId) {
        holder.proof_id = h.proofId;
        cells.IDENTIFIANT_PREUVE = h.proofId;
      }
      rows.push(cells);
      return holder;
    });
    return decl;
  });
  return { type, declarant, body: { type, declarant, declarations }, rows };
}

function caseArb(type: FileType, declarant: Declarant): fc.Arbitrary<Case> {
  return fc
    .array(declarationArb(type, declarant), { minLength: 1, maxLength: 3, size: 'max' })
    .map((plans) => buildCase(type, declarant, plans));
}

function expectedCsv(c: Case): string {
  const names = SPEC.tables[c.type].columns.map((col) => col.name);
  return [names.join('|'), ...c.rows.map((r) => names.map((n) => r[n] ?? '').join('|'))]
    .map((l) => `${l}\r\n`)
    .join('');
}

const KINDS: [FileType, Declarant][] = [
  ['adf', 'employer'],
  ['adf', 'training_organization'],
  ['jdr', 'employer'],
  ['jdr', 'training_organization'],
];

/** Warnings a valid body may still carry; none of them prevents generation. */
const ALLOWED_WARNINGS = new Set(['NIR_PROVISIONAL', 'DUPLICATE_HOLDER', 'FILING_DEADLINE_PASSED']);
const located = (i: Issue) => `${i.row} ${i.column} ${i.code}`;

describe.each(KINDS)('valid %s / %s bodies', (type, declarant) => {
  it(`generate → exactly the described rows → validates as a CSV → same bytes again (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(caseArb(type, declarant), (c) => {
        // The generators make only values the character rule accepts (values/text.ts): a body here
        // is valid by construction, never skipped.
        for (const row of c.rows)
          for (const cell of Object.values(row)) expect(hasForbiddenCharacter(cell)).toBe(false);
        const before = JSON.stringify(c.body);
        const file = generateFile(c.body, { refs, today: TODAY, generationDay: TODAY });
        expect(JSON.stringify(c.body)).toBe(before);
        expect(file.content.toString('utf8')).toBe(expectedCsv(c));
        expect(file.rows).toBe(c.rows.length);
        expect(file.declarations).toBe((c.body.declarations as unknown[]).length);
        expect(file.filename).toMatch(new RegExp(`^ppfile_${type}_20261122_[0-9a-f]{8}\\.csv$`));
        for (const w of file.warnings) expect(ALLOWED_WARNINGS.has(w.code)).toBe(true);

        const checked = validateCsv(
          file.content,
          { type, declarant, filename: file.filename },
          { refs, today: TODAY },
        );
        expect(checked.errors).toEqual([]);
        expect(checked).toMatchObject({
          valid: true,
          error_count: 0,
          file_rejected: false,
          rows_total: file.rows,
          rows_valid: file.rows,
          rows_invalid: 0,
        });
        // The JSON checks and the CSV checks are the same rules: same warnings on the same cells.
        expect(checked.warnings.map(located)).toEqual(file.warnings.map(located));

        const again = generateFile(c.body, { refs, today: TODAY, generationDay: TODAY });
        expect(again.content.equals(file.content)).toBe(true);
        expect(again.sha256).toBe(file.sha256);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- negative property: `|` or a line break inside a text value ----------------------------------

interface Target {
  /** Path in the body, as API.md §4 `field` writes it. */
  field: string;
  column: string;
  row: number;
  get: () => string;
  set: (v: string) => void;
}

const DECL_TEXT: [string[], string][] = [
  [['id'], 'ID_DECLARATION'],
  [['reference'], 'REFERENCE_DECLARATION'],
  [['training', 'name'], 'NOM_FORMATION'],
  [['certificate', 'name'], 'NOM_JDR'],
  [['certificate', 'option_specialty'], 'NOM_OPTION_SPECIALITE'],
];
const HOLDER_TEXT: [string, string][] = [
  ['unique_id', 'ID_UNIQUE_PARTENAIRE'],
  ['birth_name', 'NOM_TITULAIRE'],
  ['employer_reference', 'REFERENCE_EMPLOYEUR'],
  ['result', 'RESULTAT_OBTENU'],
  ['mention', 'MENTION_OBTENUE'],
  ['proof_url', 'LIEN_PREUVE'],
  ['proof_id', 'IDENTIFIANT_PREUVE'],
];

function textTargets(body: Json): Target[] {
  const targets: Target[] = [];
  let row = 2;
  (body.declarations as Json[]).forEach((decl, d) => {
    for (const [path, column] of DECL_TEXT) {
      const owner = path.length === 1 ? decl : (decl[path[0]!] as Json | undefined);
      const key = path[path.length - 1]!;
      if (owner && typeof owner[key] === 'string') {
        targets.push({
          field: `declarations[${d}].${path.join('.')}`,
          column,
          row,
          get: () => owner[key] as string,
          set: (v) => (owner[key] = v),
        });
      }
    }
    (decl.holders as Json[]).forEach((holder, h) => {
      for (const [key, column] of HOLDER_TEXT) {
        if (typeof holder[key] === 'string') {
          targets.push({
            field: `declarations[${d}].holders[${h}].${key}`,
            column,
            row: row + h,
            get: () => holder[key] as string,
            set: (v) => (holder[key] = v),
          });
        }
      }
    });
    row += (decl.holders as Json[]).length;
  });
  return targets;
}

describe.each(KINDS)('%s / %s: a forbidden character inside a text value', (type, declarant) => {
  it('makes generateFile throw VALIDATION_FAILED with one INVALID_CHARACTER error on that field', () => {
    fc.assert(
      fc.property(
        caseArb(type, declarant),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('|', '\n', '\r', '\r\n', '||'),
        (c, which, where, bad) => {
          // fast-check reuses generated values while shrinking: change a copy only.
          const body = structuredClone(c.body);
          // Values of one character have no inside; every text column still comes up with longer values.
          const targets = textTargets(body).filter((t) => t.get().trim().length >= 2);
          const target = targets[which % targets.length]!;
          const value = target.get();
          // Inside the value: between two of its non-space characters (a trailing line break is trimmed whitespace).
          const start = value.length - value.trimStart().length;
          const end = value.trimEnd().length;
          expect(end - start).toBeGreaterThanOrEqual(2);
          const at = start + 1 + (where % (end - start - 1));
          target.set(value.slice(0, at) + bad + value.slice(at));

          let thrown: unknown;
          try {
            generateFile(body, { refs, today: TODAY, generationDay: TODAY });
          } catch (e) {
            thrown = e;
          }
          expect(thrown).toBeInstanceOf(RequestError);
          const error = thrown as RequestError;
          expect(error.code).toBe('VALIDATION_FAILED');
          expect(REQUEST_ERROR_STATUS[error.code]).toBe(422);
          const details = error.details as { valid: boolean; error_count: number; errors: Issue[] };
          expect(details.valid).toBe(false);
          expect(details.error_count).toBe(1);
          expect(
            details.errors.map((e) => ({ row: e.row, column: e.column, field: e.field, code: e.code })),
          ).toEqual([
            { row: target.row, column: target.column, field: target.field, code: 'INVALID_CHARACTER' },
          ]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---- negative property: a control character or a Unicode line terminator in any text value -----

/** The characters no value may hold besides `|` (values/text.ts): the Cc category and U+2028 / U+2029. */
const controlChar: fc.Arbitrary<string> = fc
  .oneof(
    fc.integer({ min: 0x00, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.constantFrom(0x85, 0x9b, 0x2028, 0x2029),
  )
  .map((cp) => String.fromCharCode(cp));
/** Any one of them anywhere outside the CRLF line ends of a file. */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_FILE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Every string field of the body that fills a column (text, NIR, SIRET, codes, dates, enumerations). */
const MORE_TEXT: [string[], string, 'declaration' | 'holder'][] = [
  [['training', 'start_date'], 'DATE_DEBUT_FORMATION', 'declaration'],
  [['training', 'end_date'], 'DATE_FIN_FORMATION', 'declaration'],
  [['training', 'delivery_mode'], 'MODALITE_DISPENSE', 'declaration'],
  [['training', 'trainer_qualification'], 'QUALIFICATION_FORMATEUR', 'declaration'],
  [['training', 'certification_code'], 'CERTIFICATION_VISEE', 'declaration'],
  [['certificate', 'type'], 'TYPE_JDR', 'declaration'],
  [['certificate', 'obtention_mode'], 'MODE_OBTENTION', 'declaration'],
  [['nir'], 'NIR', 'holder'],
  [['employer_siret'], 'SIRET_EMPLOYEUR', 'holder'],
  [['validity_start'], 'DATE_DEBUT_VALIDITE', 'holder'],
  [['validity_end'], 'DATE_FIN_VALIDITE', 'holder'],
];
/** Code lists: a character in one element is reported on the list (no element index). */
const CODE_LISTS: [string[], string][] = [
  [['transferable_skills'], 'COMPETENCE_TRANSFERABLE'],
  [['training', 'formacodes'], 'DOMAINE_FORMATION'],
  [['training', 'nsf_codes'], 'SPECIALITE_FORMATION'],
];

/** textTargets plus the other string fields, and one element of each code list. */
function allStringTargets(body: Json): Target[] {
  const targets = textTargets(body);
  let row = 2;
  (body.declarations as Json[]).forEach((decl, d) => {
    const holders = decl.holders as Json[];
    for (const [path, column, level] of MORE_TEXT) {
      if (level === 'declaration') {
        const owner = path.length === 1 ? decl : (decl[path[0]!] as Json | undefined);
        const key = path[path.length - 1]!;
        if (owner && typeof owner[key] === 'string') {
          targets.push({
            field: `declarations[${d}].${path.join('.')}`,
            column,
            row,
            get: () => owner[key] as string,
            set: (v) => (owner[key] = v),
          });
        }
      } else {
        holders.forEach((holder, h) => {
          const key = path[0]!;
          if (typeof holder[key] === 'string') {
            targets.push({
              field: `declarations[${d}].holders[${h}].${key}`,
              column,
              row: row + h,
              get: () => holder[key] as string,
              set: (v) => (holder[key] = v),
            });
          }
        });
      }
    }
    for (const [path, column] of CODE_LISTS) {
      const owner = path.length === 1 ? decl : (decl[path[0]!] as Json | undefined);
      const list = owner?.[path[path.length - 1]!];
      if (Array.isArray(list) && list.length > 0) {
        const k = list.length - 1;
        targets.push({
          field: `declarations[${d}].${path.join('.')}`,
          column,
          row,
          get: () => list[k] as string,
          set: (v) => (list[k] = v),
        });
      }
    }
    row += holders.length;
  });
  return targets;
}

function tryGenerate(body: Json): { file?: ReturnType<typeof generateFile>; error?: RequestError } {
  try {
    return { file: generateFile(body, { refs, today: TODAY, generationDay: TODAY }) };
  } catch (e) {
    if (e instanceof RequestError) return { error: e };
    throw e;
  }
}

describe.each(KINDS)(
  '%s / %s: a control character or line terminator in a string value',
  (type, declarant) => {
    it(`inside the value: exactly one INVALID_CHARACTER on that field, no file, value never echoed (${RUNS} runs)`, () => {
      fc.assert(
        fc.property(caseArb(type, declarant), fc.nat(), fc.nat(), controlChar, (c, which, where, bad) => {
          const body = structuredClone(c.body);
          const targets = allStringTargets(body).filter((t) => t.get().trim().length >= 2);
          const target = targets[which % targets.length]!;
          const value = target.get();
          const start = value.length - value.trimStart().length;
          const end = value.trimEnd().length;
          const at = start + 1 + (where % (end - start - 1));
          const changed = value.slice(0, at) + bad + value.slice(at);
          target.set(changed);

          const { file, error } = tryGenerate(body);
          expect(file).toBeUndefined();
          expect(error!.code).toBe('VALIDATION_FAILED');
          const details = error!.details as { error_count: number; errors: Issue[] };
          expect(
            details.errors.map((e) => ({ row: e.row, column: e.column, field: e.field, code: e.code })),
          ).toEqual([
            { row: target.row, column: target.column, field: target.field, code: 'INVALID_CHARACTER' },
          ]);
          expect(details.error_count).toBe(1);
          // The message catalogue takes no value: neither the value nor the character is echoed.
          const text = JSON.stringify({ message: error!.message, details });
          expect(text).not.toContain(JSON.stringify(changed).slice(1, -1));
          expect(text).not.toContain(JSON.stringify(bad).slice(1, -1));
        }),
        { numRuns: RUNS },
      );
    });

    it(`anywhere in the value, ends included: refused, or trimmed as white space — never in the file (${RUNS} runs)`, () => {
      fc.assert(
        fc.property(
          caseArb(type, declarant),
          fc.nat(),
          fc.nat(),
          fc.array(controlChar, { minLength: 1, maxLength: 3 }),
          (c, which, where, chars) => {
            const body = structuredClone(c.body);
            const targets = allStringTargets(body);
            const target = targets[which % targets.length]!;
            const value = target.get();
            const at = where % (value.length + 1);
            const bad = chars.join('');
            target.set(value.slice(0, at) + bad + value.slice(at));
            // The trim (Unicode White_Space but NEL) takes CR, LF, tab, VT, FF, U+2028 and U+2029: at
            // either end (no other character than white space between them and the end) they go.
            const atEnd = trimWhiteSpace(value.slice(0, at)) === '' || trimWhiteSpace(value.slice(at)) === '';
            const trimmed = atEnd && trimWhiteSpace(bad) === '';

            const { file, error } = tryGenerate(body);
            if (trimmed) {
              expect(error).toBeUndefined();
              expect(file!.content.toString('utf8')).toBe(expectedCsv(c));
            } else {
              expect(file).toBeUndefined();
              const details = error!.details as { errors: Issue[] };
              expect(details.errors.map((e) => `${e.row} ${e.column} ${e.field} ${e.code}`)).toEqual([
                `${target.row} ${target.column} ${target.field} INVALID_CHARACTER`,
              ]);
            }
            if (file) expect(file.content.toString('utf8').replace(/\r\n/g, '')).not.toMatch(CONTROL_IN_FILE);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it(`in an uploaded CSV cell (CR and LF aside: they frame lines): never valid, the cell is named (${RUNS} runs)`, () => {
      const names = SPEC.tables[type].columns.map((col) => col.name);
      const declarationLevel = new Set(
        SPEC.tables[type].columns.filter((col) => col.level === 'declaration').map((col) => col.name),
      );
      fc.assert(
        fc.property(
          caseArb(type, declarant),
          fc.nat(),
          fc.nat(),
          fc.nat(),
          controlChar.filter((ch) => ch !== '\r' && ch !== '\n'),
          (c, whichRow, whichCell, where, bad) => {
            const file = generateFile(c.body, { refs, today: TODAY, generationDay: TODAY });
            const lines = file.content.toString('utf8').split('\r\n');
            lines.pop();
            const r = 1 + (whichRow % (lines.length - 1));
            const cells = lines[r]!.split('|');
            const filled = cells.flatMap((cell, i) => (cell === '' ? [] : [i]));
            const i = filled[whichCell % filled.length]!;
            const at = where % (cells[i]!.length + 1);
            cells[i] = cells[i]!.slice(0, at) + bad + cells[i]!.slice(at);
            lines[r] = cells.join('|');
            const content = Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'utf8');

            const checked = validateCsv(content, { type, declarant }, { refs, today: TODAY });
            expect(checked.valid).toBe(false);
            expect(checked.rows_total).toBe(lines.length - 1);
            // On the first row of a declaration the cell is checked; on a later row a declaration-level
            // cell is compared with the first one instead.
            const row = r + 1;
            const here = checked.errors
              .filter((e) => e.row === row && e.column === names[i])
              .map((e) => e.code);
            expect(here).toHaveLength(1);
            expect(
              declarationLevel.has(names[i]!)
                ? ['INVALID_CHARACTER', 'INCONSISTENT_DECLARATION']
                : ['INVALID_CHARACTER'],
            ).toContain(here[0]);
            expect(JSON.stringify(checked)).not.toContain(JSON.stringify(bad).slice(1, -1));
          },
        ),
        { numRuns: RUNS },
      );
    });
  },
);

// ---- negative property: an invisible, format or damaged character in any string value -----------

/**
 * The other characters no value may hold (values/text.ts), one of each kind: format (Cf) and other
 * default-ignorable code points, lone surrogates, U+FFFD, noncharacters, private use. None is white
 * space: wherever it stands, ends included, the value is refused — never trimmed, never in a file.
 */
const invisibleChar: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x180e, 0x3164, 0xfeff, 0xffa0, 0xfffd),
    fc.integer({ min: 0x200b, max: 0x200f }),
    fc.integer({ min: 0x202a, max: 0x202e }),
    fc.integer({ min: 0x2060, max: 0x206f }),
    fc.integer({ min: 0xfe00, max: 0xfe0f }),
    fc.integer({ min: 0xe0000, max: 0xe007f }),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.integer({ min: 0xfdd0, max: 0xfdef }),
    fc
      .integer({ min: 0, max: 0x10 })
      .chain((plane) => fc.constantFrom(plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff)),
    fc.integer({ min: 0xe000, max: 0xf8ff }),
    fc.integer({ min: 0xf0000, max: 0x10fffd }),
  )
  .map((cp) => String.fromCodePoint(cp));
const COMBINING_MARKS = ['\u0300', '\u0301', '\u0308', '\u0327', '\u20dd', '\u0903'];

describe.each(KINDS)(
  '%s / %s: an invisible, format or damaged character in a string value',
  (type, declarant) => {
    it(`anywhere, ends included: exactly one INVALID_CHARACTER on that field with its code point, no file (${RUNS} runs)`, () => {
      fc.assert(
        fc.property(caseArb(type, declarant), fc.nat(), fc.nat(), invisibleChar, (c, which, where, bad) => {
          const body = structuredClone(c.body);
          const targets = allStringTargets(body);
          const target = targets[which % targets.length]!;
          const value = target.get();
          const at = where % (value.length + 1);
          const changed = value.slice(0, at) + bad + value.slice(at);
          target.set(changed);

          const { file, error } = tryGenerate(body);
          expect(file).toBeUndefined();
          expect(error!.code).toBe('VALIDATION_FAILED');
          const details = error!.details as { error_count: number; errors: Issue[] };
          expect(details.errors.map((e) => `${e.row} ${e.column} ${e.field} ${e.code}`)).toEqual([
            `${target.row} ${target.column} ${target.field} INVALID_CHARACTER`,
          ]);
          const name = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
          expect(details.errors[0]!.message).toContain(name);
          const text = JSON.stringify({ message: error!.message, details });
          expect(text).not.toContain(JSON.stringify(changed).slice(1, -1));
          expect(text).not.toContain(bad);
        }),
        { numRuns: RUNS },
      );
    });

    it(`a value that starts with a combining mark: INVALID_CHARACTER, spaces before it or not (${RUNS} runs)`, () => {
      fc.assert(
        fc.property(
          caseArb(type, declarant),
          fc.nat(),
          fc.constantFrom(...COMBINING_MARKS),
          fc.constantFrom('', ' ', '\u00a0 '),
          (c, which, mark, space) => {
            const body = structuredClone(c.body);
            // Text columns: in a code list, a mark before a later element is inside the cell.
            const targets = textTargets(body);
            const target = targets[which % targets.length]!;
            target.set(`${space}${mark}${trimWhiteSpace(target.get())}`);
            const { file, error } = tryGenerate(body);
            expect(file).toBeUndefined();
            const details = error!.details as { errors: Issue[] };
            expect(details.errors.map((e) => `${e.row} ${e.column} ${e.field} ${e.code}`)).toEqual([
              `${target.row} ${target.column} ${target.field} INVALID_CHARACTER`,
            ]);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it(`in an uploaded CSV cell: never valid, the cell is named (${RUNS} runs)`, () => {
      const names = SPEC.tables[type].columns.map((col) => col.name);
      const declarationLevel = new Set(
        SPEC.tables[type].columns.filter((col) => col.level === 'declaration').map((col) => col.name),
      );
      fc.assert(
        fc.property(
          caseArb(type, declarant),
          fc.nat(),
          fc.nat(),
          fc.nat(),
          // A lone surrogate has no UTF-8 form: a file cannot carry one (its bytes are INVALID_ENCODING).
          invisibleChar.filter((ch) => !/^[\ud800-\udfff]$/.test(ch)),
          (c, whichRow, whichCell, where, bad) => {
            const file = generateFile(c.body, { refs, today: TODAY, generationDay: TODAY });
            const lines = file.content.toString('utf8').split('\r\n');
            lines.pop();
            const r = 1 + (whichRow % (lines.length - 1));
            const cells = lines[r]!.split('|');
            const filled = cells.flatMap((cell, i) => (cell === '' ? [] : [i]));
            const i = filled[whichCell % filled.length]!;
            const at = where % (cells[i]!.length + 1);
            cells[i] = cells[i]!.slice(0, at) + bad + cells[i]!.slice(at);
            lines[r] = cells.join('|');
            const content = Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'utf8');

            const checked = validateCsv(content, { type, declarant }, { refs, today: TODAY });
            expect(checked.valid).toBe(false);
            expect(checked.file_rejected).toBe(false);
            const here = checked.errors
              .filter((e) => e.row === r + 1 && e.column === names[i])
              .map((e) => e.code);
            expect(here).toHaveLength(1);
            expect(
              declarationLevel.has(names[i]!)
                ? ['INVALID_CHARACTER', 'INCONSISTENT_DECLARATION']
                : ['INVALID_CHARACTER'],
            ).toContain(here[0]);
            expect(JSON.stringify(checked)).not.toContain(bad);
          },
        ),
        { numRuns: RUNS },
      );
    });
  },
);
