import type { ReferenceListName } from '../references';

export type FileType = 'adf' | 'jdr';
export type Declarant = 'employer' | 'training_organization';
export const FILE_TYPES: readonly FileType[] = ['adf', 'jdr'];
export const DECLARANTS: readonly Declarant[] = ['employer', 'training_organization'];

/**
 * Conditions a column's presence depends on, evaluated on the row's own cells:
 * - training: the training block is filled (always for adf; PRESENCE_FORMATION = OUI for jdr)
 * - certifying / not_certifying: training and FORMATION_CERTIFIANTE = OUI / NON
 * - not_certifying_or_unset: training and FORMATION_CERTIFIANTE ≠ OUI (an employer may leave it empty)
 * - employer_present: PRESENCE_EMPLOYEUR = OUI
 * A condition is unknown when the cell it reads is itself wrong; presence is then not judged.
 */
export type Condition =
  'training' | 'certifying' | 'not_certifying' | 'not_certifying_or_unset' | 'employer_present';

/** `required`: must hold a value when `when` holds (always if no `when`); must be empty when it does not. */
export type Presence = { readonly required: boolean; readonly when?: Condition } | 'never';

export type ColumnType = 'text' | 'date' | 'enum' | 'codes' | 'nir' | 'siret' | 'url';

/** How the JSON body fills the column (SERVICE.md §2.1, API.md §3). */
export type JsonSource =
  | { readonly kind: 'string'; readonly path: string }
  | { readonly kind: 'enum'; readonly path: string }
  | { readonly kind: 'date'; readonly path: string }
  | { readonly kind: 'boolean'; readonly path: string }
  | { readonly kind: 'codes'; readonly path: string }
  | { readonly kind: 'nir'; readonly path: string }
  | { readonly kind: 'siret'; readonly path: string }
  /** PRESENCE_FORMATION: OUI when the declaration has a `training` object. */
  | { readonly kind: 'training_presence'; readonly path: 'training' }
  /** PRESENCE_EMPLOYEUR: employer_agreement, else (training organization) OUI when employer_siret is given. */
  | { readonly kind: 'employer_presence'; readonly path: 'employer_agreement' };

export interface ColumnSpec {
  readonly name: string;
  /** What people call the column: row 2 of the spreadsheet template, header detection of an import (API.md §14). */
  readonly labels: { readonly fr: string; readonly en: string };
  /** Declaration-level columns must be equal on every row of one ID_DECLARATION. */
  readonly level: 'declaration' | 'holder';
  readonly type: ColumnType;
  readonly json: JsonSource;
  readonly maxLength?: number;
  /** enum: allowed values. */
  readonly values?: readonly string[];
  /** codes: the reference list, and how many values (per declarant); single = one code, no `/`. */
  readonly list?: ReferenceListName;
  readonly count?: Readonly<Record<Declarant, readonly [min: number, max: number]>>;
  /** date: a training date, which cannot be after today (SERVICE.md §7). */
  readonly notFuture?: boolean;
  /** Free text that a spreadsheet could take for a formula (formula_policy). */
  readonly formula?: boolean;
  readonly presence: Readonly<Record<Declarant, Presence>>;
}

export interface KindTable {
  readonly type: FileType;
  readonly columns: readonly ColumnSpec[];
  /** Column whose date starts the filing-deadline count (API.md §4). */
  readonly deadlineColumn: string;
}

export interface SpecLimits {
  readonly maxHoldersPerDeclaration: number;
  readonly maxErrorsListed: number;
  readonly maxRowsLive: number;
  readonly maxRowsTest: number;
  readonly maxBytes: number;
  readonly maxRetentionHours: number;
}

export interface SpecVersion {
  readonly version: string;
  readonly tables: Readonly<Record<FileType, KindTable>>;
  readonly enumerations: Readonly<Record<string, readonly { code: string; label: string }[]>>;
  readonly limits: SpecLimits;
}
