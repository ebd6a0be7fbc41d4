import type { IssueCode } from './codes';
import type { IssueCollector } from './issues';
import type { Reason } from './messages';
import { REFERENCE_CODE_FORMATS, type ReferenceLists } from './references';
import type { ColumnSpec, Condition, Declarant, KindTable, SpecVersion } from './format/types';
import { formatFrDate, parseFrDate, type DayNumber } from './values/dates';
import { filingDeadline } from './values/filing-deadline';
import { hasValidNirKey, isProvisionalNir, nirNumber, nirProblem } from './values/nir';
import { hasValidSiretKey, isSiretFormat } from './values/siret';
import { charLength, forbiddenCharacter, isHttpUrl, looksLikeFormula } from './values/text';

export type FormulaPolicy = 'reject' | 'warn' | 'allow';

/** Where a JSON row comes from: declarations[declaration].holders[holder]. */
export interface RowLocator {
  readonly declaration: number;
  readonly holder: number;
}

export interface CheckContext {
  /** Where rows come from: an uploaded CSV's cells are slices of large decoded chunks. */
  readonly input: 'json' | 'csv';
  readonly spec: SpecVersion;
  readonly table: KindTable;
  readonly declarant: Declarant;
  readonly refs: ReferenceLists;
  readonly today: DayNumber;
  readonly strictReferences: boolean;
  /** JSON input follows formula_policy; an uploaded CSV only ever gets a warning (API.md §4). */
  readonly formulaPolicy: FormulaPolicy | 'warn_only';
  readonly issues: IssueCollector;
  /** JSON input: the request path of a column of a row (and of one element of a multi-valued field). */
  readonly fieldOf?: (loc: RowLocator, column: ColumnSpec, element?: number) => string;
}

export interface RowCounts {
  rows_total: number;
  rows_valid: number;
  rows_invalid: number;
  declarations: number;
}

type NamedColumn =
  | 'ID_DECLARATION'
  | 'ID_UNIQUE_PARTENAIRE'
  | 'NIR'
  | 'PRESENCE_EMPLOYEUR'
  | 'PRESENCE_FORMATION'
  | 'FORMATION_CERTIFIANTE'
  | 'DATE_DEBUT_FORMATION'
  | 'DATE_FIN_FORMATION'
  | 'DATE_DEBUT_VALIDITE'
  | 'DATE_FIN_VALIDITE';

const CODE_ISSUE: Record<string, IssueCode> = {
  rome: 'INVALID_ROME_CODE',
  formacode: 'INVALID_FORMACODE',
  nsf: 'INVALID_NSF_CODE',
  rs: 'INVALID_RS_CODE',
};
const CODE_FORMAT_TEXT: Record<string, string> = {
  rome: '6 digits',
  formacode: '5 digits',
  nsf: '3 digits + optional lower-case letter, existing group',
  rs: 'RS + digits',
};

interface DeclarationState {
  readonly firstRow: number;
  readonly cells: readonly string[];
  readonly loc: RowLocator | undefined;
  rows: number;
  invalidRows: number;
  invalid: boolean;
  trainingEnd: DayNumber | null;
  deadlineReported: boolean;
  /** The row of each NIR (nirNumber) of the declaration. */
  readonly nirs: Map<number, number>;
}

/**
 * Every check of a row, of a declaration across its rows, and of the file across declarations
 * (SERVICE.md §7, API.md §3b–§4). JSON bodies and uploaded CSV files both arrive here as rows of
 * official cells, so each rule and each error code lives in this one place.
 */
export class RowChecker {
  private readonly columns: readonly ColumnSpec[];
  private readonly declColumns: number[] = [];
  private readonly holderColumns: number[] = [];
  /** Indexes of the columns the checks read by name (-1 when the kind has none); a fixed-shape object, read per cell. */
  private readonly col: Readonly<Record<NamedColumn, number>>;
  private readonly declarations = new Map<string, DeclarationState>();
  private readonly uniqueIds = new Map<string, number>();
  private readonly unverified = new Set<string>();
  private readonly maxHolders: number;
  private rowsTotal = 0;
  private looseInvalid = 0;
  private readonly deadlineIndex: number;
  /** Dates parsed by the cell checks of the current row, by column index. */
  private readonly days: (DayNumber | null)[];
  /** The declarant may leave FORMATION_CERTIFIANTE empty (employer): empty then means "not certifying". */
  private readonly certifyingOptional: boolean;

  constructor(private readonly ctx: CheckContext) {
    this.columns = ctx.table.columns;
    this.columns.forEach((c, i) =>
      (c.level === 'declaration' ? this.declColumns : this.holderColumns).push(i),
    );
    const at = (name: string): number => this.columns.findIndex((c) => c.name === name);
    this.col = {
      ID_DECLARATION: at('ID_DECLARATION'),
      ID_UNIQUE_PARTENAIRE: at('ID_UNIQUE_PARTENAIRE'),
      NIR: at('NIR'),
      PRESENCE_EMPLOYEUR: at('PRESENCE_EMPLOYEUR'),
      PRESENCE_FORMATION: at('PRESENCE_FORMATION'),
      FORMATION_CERTIFIANTE: at('FORMATION_CERTIFIANTE'),
      DATE_DEBUT_FORMATION: at('DATE_DEBUT_FORMATION'),
      DATE_FIN_FORMATION: at('DATE_FIN_FORMATION'),
      DATE_DEBUT_VALIDITE: at('DATE_DEBUT_VALIDITE'),
      DATE_FIN_VALIDITE: at('DATE_FIN_VALIDITE'),
    };
    this.deadlineIndex = at(ctx.table.deadlineColumn);
    this.days = new Array<number | null>(this.columns.length).fill(null);
    this.maxHolders = ctx.spec.limits.maxHoldersPerDeclaration;
    const certifying = this.columns[this.col.FORMATION_CERTIFIANTE]!.presence[ctx.declarant];
    this.certifyingOptional = certifying !== 'never' && !certifying.required;
  }

  /** A line that could not be split into the header's columns (COLUMN_COUNT, reported by the reader). */
  addBrokenRow(): void {
    this.rowsTotal++;
    this.looseInvalid++;
  }

  addRow(row: number, cells: readonly string[], loc?: RowLocator): void {
    this.rowsTotal++;
    const issues = this.ctx.issues;
    const id = cells[this.col.ID_DECLARATION]!;
    let decl = id === '' ? undefined : this.declarations.get(id);
    if (decl === undefined) {
      decl = {
        firstRow: row,
        cells: this.keep(cells),
        loc,
        rows: 0,
        invalidRows: 0,
        invalid: false,
        trainingEnd: null,
        deadlineReported: false,
        nirs: new Map(),
      };
      const before = issues.errorCount;
      this.checkDeclarationColumns(row, cells, loc, decl);
      decl.invalid = issues.errorCount > before;
      // A row without ID_DECLARATION belongs to no declaration: it is counted on its own.
      if (id !== '') this.declarations.set(this.keep(id), decl);
    } else {
      this.checkConsistency(row, cells, loc, decl);
    }
    decl.rows++;

    const before = issues.errorCount;
    this.checkHolderColumns(row, cells, loc, decl);
    const rowInvalid = issues.errorCount > before;
    if (id === '') this.looseInvalid++;
    else if (rowInvalid) decl.invalidRows++;
  }

  finish(): RowCounts {
    let invalid = this.looseInvalid;
    for (const decl of this.declarations.values()) {
      if (decl.rows > this.maxHolders) {
        decl.invalid = true;
        const column = this.columns[this.col.ID_DECLARATION]!;
        this.ctx.issues.error(
          'DECLARATION_TOO_LARGE',
          decl.firstRow,
          column.name,
          decl.loc && this.ctx.fieldOf ? this.declarationPath(decl.loc) : undefined,
          { count: decl.rows, max: this.maxHolders },
        );
      }
      invalid += decl.invalid ? decl.rows : decl.invalidRows;
    }
    return {
      rows_total: this.rowsTotal,
      rows_invalid: invalid,
      rows_valid: this.rowsTotal - invalid,
      declarations: this.declarations.size,
    };
  }

  // ---- declaration level ------------------------------------------------------------------

  private checkDeclarationColumns(
    row: number,
    cells: readonly string[],
    loc: RowLocator | undefined,
    decl: DeclarationState,
  ): void {
    for (const i of this.declColumns) this.checkCell(row, cells, i, loc);
    const start = this.dayOf(cells, this.col.DATE_DEBUT_FORMATION);
    const end = this.dayOf(cells, this.col.DATE_FIN_FORMATION);
    decl.trainingEnd = end;
    if (start !== null && end !== null && end < start) {
      this.error('END_BEFORE_START', row, this.col.DATE_FIN_FORMATION, loc);
    }
    if (this.deadlineIndex === this.col.DATE_FIN_FORMATION && end !== null) {
      this.checkDeadline(row, end, this.col.DATE_FIN_FORMATION, loc, decl);
    }
  }

  private checkConsistency(
    row: number,
    cells: readonly string[],
    loc: RowLocator | undefined,
    decl: DeclarationState,
  ): void {
    for (const i of this.declColumns) {
      if (cells[i] !== decl.cells[i]) {
        decl.invalid = true;
        this.error('INCONSISTENT_DECLARATION', row, i, loc, { first_row: decl.firstRow });
      }
    }
  }

  private checkDeadline(
    row: number,
    day: DayNumber,
    i: number,
    loc: RowLocator | undefined,
    decl: DeclarationState,
  ): void {
    if (decl.deadlineReported) return;
    const deadline = filingDeadline(this.ctx.declarant, day);
    if (deadline !== null && deadline < this.ctx.today) {
      decl.deadlineReported = true;
      this.warning('FILING_DEADLINE_PASSED', row, i, loc, { deadline: formatFrDate(deadline) });
    }
  }

  // ---- holder level -----------------------------------------------------------------------

  private checkHolderColumns(
    row: number,
    cells: readonly string[],
    loc: RowLocator | undefined,
    decl: DeclarationState,
  ): void {
    for (const i of this.holderColumns) this.checkCell(row, cells, i, loc);

    const uidIndex = this.col.ID_UNIQUE_PARTENAIRE;
    const uid = cells[uidIndex]!;
    if (uid !== '') {
      const first = this.uniqueIds.get(uid);
      if (first === undefined) this.uniqueIds.set(this.keep(uid), row);
      else this.error('DUPLICATE_UNIQUE_ID', row, uidIndex, loc, { first_row: first });
    }

    const nirIndex = this.col.NIR;
    const nir = cells[nirIndex]!;
    if (nir.length === 13 && nirProblem(nir) === null) {
      const key = nirNumber(nir);
      const first = decl.nirs.get(key);
      if (first === undefined) decl.nirs.set(key, row);
      else this.warning('DUPLICATE_HOLDER', row, nirIndex, loc, { first_row: first });
    }

    const validityStart = this.dayOf(cells, this.col.DATE_DEBUT_VALIDITE);
    const validityEnd = this.dayOf(cells, this.col.DATE_FIN_VALIDITE);
    if (validityStart !== null && decl.trainingEnd !== null && validityStart < decl.trainingEnd) {
      this.error('VALIDITY_BEFORE_TRAINING_END', row, this.col.DATE_DEBUT_VALIDITE, loc);
    }
    if (validityStart !== null && validityEnd !== null && validityEnd < validityStart) {
      this.error('VALIDITY_END_BEFORE_START', row, this.col.DATE_FIN_VALIDITE, loc);
    }
    if (this.deadlineIndex === this.col.DATE_DEBUT_VALIDITE && validityStart !== null) {
      this.checkDeadline(row, validityStart, this.col.DATE_DEBUT_VALIDITE, loc, decl);
    }
  }

  // ---- one cell ---------------------------------------------------------------------------

  private checkCell(row: number, cells: readonly string[], i: number, loc: RowLocator | undefined): void {
    const column = this.columns[i]!;
    const value = cells[i]!;
    this.days[i] = null;
    const presence = column.presence[this.ctx.declarant];
    let allowed: boolean | null;
    let required: boolean;
    if (presence === 'never') {
      allowed = false;
      required = false;
    } else {
      allowed = presence.when ? this.condition(presence.when, cells) : true;
      required = presence.required && allowed === true;
    }
    if (value === '') {
      if (required) this.error('REQUIRED_FIELD', row, i, loc);
      return;
    }
    if (allowed === false) {
      const reason: Reason =
        presence === 'never'
          ? 'declarant'
          : this.condition('training', cells) === false
            ? 'training'
            : presence.when!;
      this.error('FIELD_NOT_ALLOWED', row, i, loc, { reason });
      return;
    }
    const forbidden = forbiddenCharacter(value);
    if (forbidden !== null) {
      this.error('INVALID_CHARACTER', row, i, loc, {
        code_point: forbidden.codePoint,
        character: forbidden.problem,
      });
      return;
    }
    switch (column.type) {
      case 'text':
        if (column.formula && looksLikeFormula(value) && !this.formula(row, i, loc)) return;
        this.checkLength(row, i, loc, value, column);
        return;
      case 'enum':
        if (!column.values!.includes(value)) {
          this.error('INVALID_VALUE', row, i, loc, { expected: column.values!.join(', ') });
        }
        return;
      case 'date': {
        const day = parseFrDate(value);
        if (day === null) {
          this.error('INVALID_DATE', row, i, loc, { expected: 'dd/mm/yyyy' });
          return;
        }
        this.days[i] = day;
        if (column.notFuture && day > this.ctx.today) {
          this.error('FUTURE_DATE', row, i, loc, { deadline: formatFrDate(this.ctx.today) });
        }
        return;
      }
      case 'nir':
        this.checkNir(row, i, loc, value);
        return;
      case 'siret':
        if (!isSiretFormat(value)) this.error('INVALID_SIRET', row, i, loc);
        else if (!hasValidSiretKey(value)) this.error('INVALID_SIRET_KEY', row, i, loc);
        return;
      case 'url':
        if (!this.checkLength(row, i, loc, value, column)) return;
        if (!isHttpUrl(value)) this.error('INVALID_URL', row, i, loc);
        return;
      case 'codes':
        this.checkCodes(row, i, loc, value, column);
        return;
    }
  }

  private checkLength(
    row: number,
    i: number,
    loc: RowLocator | undefined,
    value: string,
    column: ColumnSpec,
  ): boolean {
    const max = column.maxLength;
    if (max === undefined || value.length <= max) return true;
    const length = charLength(value);
    if (length <= max) return true;
    this.error('FIELD_TOO_LONG', row, i, loc, { max, length });
    return false;
  }

  /** Returns whether the cell's other checks should go on. */
  private formula(row: number, i: number, loc: RowLocator | undefined): boolean {
    switch (this.ctx.formulaPolicy) {
      case 'reject':
        this.error('FORMULA_NOT_ALLOWED', row, i, loc);
        return false;
      case 'warn':
      case 'warn_only':
        this.warning('FORMULA_NOT_ALLOWED', row, i, loc);
        return true;
      case 'allow':
        return true;
    }
  }

  private checkNir(row: number, i: number, loc: RowLocator | undefined, value: string): void {
    // JSON input: a 15-character NIR reaches here only when its key is wrong (a right key is
    // removed by the normalizer). A CSV must hold the 13 characters.
    if (this.ctx.input === 'json' && value.length === 15 && nirProblem(value.slice(0, 13)) === null) {
      if (!hasValidNirKey(value)) this.error('INVALID_NIR_KEY', row, i, loc);
      else this.error('INVALID_NIR', row, i, loc, { reason: 'length' });
      return;
    }
    const problem = nirProblem(value);
    if (problem !== null) {
      this.error('INVALID_NIR', row, i, loc, { reason: problem });
      return;
    }
    if (isProvisionalNir(value)) this.warning('NIR_PROVISIONAL', row, i, loc);
  }

  private checkCodes(
    row: number,
    i: number,
    loc: RowLocator | undefined,
    value: string,
    column: ColumnSpec,
  ): void {
    const listName = column.list!;
    const code = CODE_ISSUE[listName]!;
    const format = REFERENCE_CODE_FORMATS[listName];
    const list = this.ctx.refs[listName];
    const parts = column.count ? value.split('/') : [value];
    const errorsBefore = this.ctx.issues.errorCount;
    if (column.count) {
      const [min, max] = column.count[this.ctx.declarant];
      if (parts.length < min || parts.length > max) {
        this.error('VALUE_COUNT', row, i, loc, { count: parts.length, min: Math.max(min, 1), max });
      }
    }
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      const element = column.count ? k : undefined;
      if (!format.test(part) || (listName === 'nsf' && !this.ctx.refs.nsfGroups.has(part.slice(0, 3)))) {
        // A malformed code is an error whatever strict_references says (API.md §3c).
        this.error(
          code,
          row,
          i,
          loc,
          { list: listName, detail: 'format', expected: CODE_FORMAT_TEXT[listName] },
          element,
        );
        continue;
      }
      if (list.has(part)) continue;
      if (list.complete) {
        if (this.ctx.strictReferences) this.error(code, row, i, loc, { list: listName }, element);
        else this.warning(code, row, i, loc, { list: listName }, element);
      } else {
        const key = `${listName}:${part}`;
        if (!this.unverified.has(key)) {
          this.unverified.add(key);
          this.warning('REFERENCE_NOT_VERIFIED', row, i, loc, { list: listName }, element);
        }
      }
    }
    if (this.ctx.issues.errorCount === errorsBefore) this.checkLength(row, i, loc, value, column);
  }

  // ---- helpers ----------------------------------------------------------------------------

  /**
   * What long-lived maps keep of a row: a copy of the cells (callers reuse their row array), and
   * for CSV input detached strings (see detach).
   */
  private keep<T extends string | readonly string[]>(value: T): T {
    if (typeof value === 'string') return (this.ctx.input === 'json' ? value : detach(value)) as T;
    return (this.ctx.input === 'json' ? [...value] : value.map(detach)) as unknown as T;
  }

  /** true / false, or null when the cell the condition reads is itself wrong (presence not judged). */
  private condition(condition: Condition, cells: readonly string[]): boolean | null {
    if (condition === 'employer_present') return yesNo(cells[this.col.PRESENCE_EMPLOYEUR]!, false);
    const training = this.ctx.table.type === 'adf' ? true : yesNo(cells[this.col.PRESENCE_FORMATION]!, true);
    if (condition === 'training' || training !== true) return training;
    const certifying = cells[this.col.FORMATION_CERTIFIANTE]!;
    switch (condition) {
      case 'certifying':
        // CERTIFICATION_VISEE is "allowed only when certifying" (API.md §3b): an employer who leaves
        // FORMATION_CERTIFIANTE empty is not certifying, as not_certifying_or_unset reads it.
        if (certifying === '' && this.certifyingOptional) return false;
        return certifying === 'OUI' ? true : certifying === 'NON' ? false : null;
      case 'not_certifying':
        return certifying === 'NON' ? true : certifying === 'OUI' ? false : null;
      case 'not_certifying_or_unset':
        return certifying === 'NON' || certifying === '' ? true : certifying === 'OUI' ? false : null;
    }
  }

  private dayOf(cells: readonly string[], i: number): DayNumber | null {
    if (i < 0 || cells[i] === '') return null;
    return this.days[i] ?? null;
  }

  private path(loc: RowLocator | undefined, i: number, element?: number): string | undefined {
    return loc && this.ctx.fieldOf ? this.ctx.fieldOf(loc, this.columns[i]!, element) : undefined;
  }

  private declarationPath(loc: RowLocator): string {
    return `declarations[${loc.declaration}].holders`;
  }

  private error(
    code: IssueCode,
    row: number,
    i: number,
    loc: RowLocator | undefined,
    params?: Parameters<IssueCollector['error']>[4],
    element?: number,
  ): void {
    this.ctx.issues.error(code, row, this.columns[i]!.name, this.path(loc, i, element), params);
  }

  private warning(
    code: IssueCode,
    row: number,
    i: number,
    loc: RowLocator | undefined,
    params?: Parameters<IssueCollector['warning']>[4],
    element?: number,
  ): void {
    this.ctx.issues.warning(code, row, this.columns[i]!.name, this.path(loc, i, element), params);
  }
}

/** OUI → true, NON → false, '' → `empty`, anything else → null (unknown). */
function yesNo(value: string, emptyMeansNo: boolean): boolean | null {
  if (value === 'OUI') return true;
  if (value === 'NON') return false;
  if (value === '') return emptyMeansNo ? false : null;
  return null;
}

/**
 * A copy of a string that does not keep its parent alive. Cells of an uploaded CSV are slices of a
 * whole decoded chunk; a slice kept in a long-lived map (unique ids, NIRs, first rows) would pin
 * every chunk in memory. Concatenation then slicing yields a short string of its own.
 */
function detach(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}
