/** Section 5: the grid, then "Check again" and "Apply safe fixes", and what the fixes changed. */
import type { ColumnSpec } from '@ppfile/rules/format';
import type { BodyChange, DeclarationBody } from '../engine/protocol';
import type { RowIndex } from './body-grid';
import { FixesList } from './fixes-list';
import { Grid, type GridTarget } from './grid';
import type { Problem, SheetPlaces } from './problems';
import type { Lang, Texts } from './texts';

export interface Fix {
  change: BodyChange;
  /** The grid row of the changed value, when known. */
  row: number | null;
}

interface DataProps {
  t: Texts;
  lang: Lang;
  body: DeclarationBody;
  index: RowIndex;
  columns: readonly ColumnSpec[];
  problems: ReadonlyMap<string, Problem[]>;
  places: SheetPlaces | null;
  target: GridTarget | null;
  edited: boolean;
  busy: boolean;
  fixes: Fix[] | null;
  onEdit: (row: number, column: ColumnSpec, text: string) => void;
  onCheck: () => void;
  onFixes: () => void;
}

export function DataSection(props: DataProps) {
  const { t } = props;
  return (
    <section class="card" aria-labelledby="build-grid-title">
      <h2 id="build-grid-title">{t.gridTitle}</h2>
      <p class="muted small" id="build-grid-help">
        {t.gridHelp}
      </p>
      <p class="muted small">{t.gridCaption(props.index.rowCount)}</p>
      <Grid
        t={t}
        lang={props.lang}
        body={props.body}
        index={props.index}
        columns={props.columns}
        problems={props.problems}
        places={props.places}
        target={props.target}
        onEdit={props.onEdit}
      />
      {props.edited && (
        <p class="alert warn build-edited" data-testid="build-edited">
          {t.edited}
        </p>
      )}
      {/* aria-disabled, not disabled, while a check runs: the focused button keeps the focus. */}
      <div class="build-actions">
        <button
          type="button"
          class={props.edited ? 'btn' : 'btn secondary'}
          aria-disabled={props.busy}
          onClick={() => !props.busy && props.onCheck()}
          data-testid="build-check-again"
        >
          {t.checkAgain}
        </button>
        <button
          type="button"
          class="btn secondary"
          aria-disabled={props.busy}
          aria-describedby="build-fixes-help"
          onClick={() => !props.busy && props.onFixes()}
          data-testid="build-apply-fixes"
        >
          {t.applyFixes}
        </button>
      </div>
      <p class="field-help" id="build-fixes-help">
        {t.fixesHelp}
      </p>
      {props.fixes && <FixesList t={t} changes={props.fixes} />}
    </section>
  );
}
