/**
 * The body as a table: one row per holder, one column per official column, the cells with a problem
 * marked. A real <table> (role grid: the arrow keys move between cells, Enter or F2 edits); only the
 * rows in view are in the DOM (useVirtualRows), spacer rows keep the scroll height.
 */
import type { ColumnSpec } from '@ppfile/rules/format';
import type { TargetedKeyboardEvent } from 'preact';
import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DeclarationBody } from '../engine/protocol';
import { cellText, choicesOf, type RowIndex } from './body-grid';
import { cellKey, cellRef, sheetRowOf, type Problem, type SheetPlaces } from './problems';
import type { Lang, Texts } from './texts';
import { useVirtualRows } from './use-virtual-rows';

const ROW_HEIGHT = 34;
const HEAD_HEIGHT = 52;
const PAGE_ROWS = 10;
const WIDTHS: Record<string, number> = {
  date: 112,
  nir: 160,
  siret: 150,
  enum: 170,
  codes: 190,
  url: 220,
  text: 190,
};

export interface GridTarget {
  row: number;
  column: string;
  /** A new request each time, even for the same cell. */
  seq: number;
}

interface GridProps {
  t: Texts;
  lang: Lang;
  body: DeclarationBody;
  index: RowIndex;
  columns: readonly ColumnSpec[];
  problems: ReadonlyMap<string, Problem[]>;
  places: SheetPlaces | null;
  target: GridTarget | null;
  onEdit: (row: number, column: ColumnSpec, text: string) => void;
}

interface Active {
  row: number;
  col: number;
}

export function Grid(props: GridProps) {
  const { t, body, index, columns, target } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<Active>({ row: 0, col: 0 });
  const [editing, setEditing] = useState(false);
  const wantFocus = useRef(false);
  const rows = useVirtualRows({
    count: index.rowCount,
    getScrollElement: () => scroller.current,
    rowHeight: ROW_HEIGHT,
    headHeight: HEAD_HEIGHT,
  });

  const moveTo = (row: number, col: number) => {
    const next = {
      row: Math.max(0, Math.min(index.rowCount - 1, row)),
      col: Math.max(0, Math.min(columns.length - 1, col)),
    };
    setActive(next);
    setEditing(false);
    wantFocus.current = true;
    rows.scrollToIndex(next.row, { align: 'auto' });
  };

  // Another file read: back to its first cell.
  useEffect(() => {
    setActive({ row: 0, col: 0 });
    setEditing(false);
  }, [index]);

  useEffect(() => {
    if (!target) return;
    const col = columns.findIndex((c) => c.name === target.column);
    moveTo(target.row, Math.max(col, 0));
    // A new target (its seq) is a new request, even for the same cell.
  }, [target?.seq]);

  // The active cell takes the focus once its row is rendered (after a scroll, on a later render).
  useLayoutEffect(() => {
    if (!wantFocus.current || editing) return;
    const cell = scroller.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`);
    if (cell) {
      wantFocus.current = false;
      cell.focus();
    }
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (editing) return;
    const { row, col } = active;
    const moves: Record<string, () => void> = {
      ArrowUp: () => moveTo(row - 1, col),
      ArrowDown: () => moveTo(row + 1, col),
      ArrowLeft: () => moveTo(row, col - 1),
      ArrowRight: () => moveTo(row, col + 1),
      PageUp: () => moveTo(row - PAGE_ROWS, col),
      PageDown: () => moveTo(row + PAGE_ROWS, col),
      Home: () => moveTo(event.ctrlKey ? 0 : row, 0),
      End: () => moveTo(event.ctrlKey ? index.rowCount - 1 : row, columns.length - 1),
      Enter: () => setEditing(true),
      F2: () => setEditing(true),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  // The rows call through this ref, so that `actions` stays one object and sees this render's state.
  const latest = useRef({ active, onEdit: props.onEdit, columns });
  latest.current = { active, onEdit: props.onEdit, columns };
  const actions = useMemo<RowActions>(
    () => ({
      click: (row, col) => {
        setActive({ row, col });
        setEditing(false);
      },
      focus: (row, col) => setActive((at) => (at.row === row && at.col === col ? at : { row, col })),
      edit: (row, col) => {
        setActive({ row, col });
        setEditing(true);
      },
      stopEditing: (text) => {
        const { active: at, onEdit, columns: cols } = latest.current;
        setEditing(false);
        wantFocus.current = true;
        if (text !== null) onEdit(at.row, cols[at.col]!, text);
      },
    }),
    [],
  );

  const items = rows.getVirtualItems();
  // Tab enters the grid at the active cell, or in the first row in view when that one was scrolled away.
  const tabRow = items.some((i) => i.index === active.row) ? active.row : (items[0]?.index ?? 0);
  const top = items.length ? items[0]!.start - HEAD_HEIGHT : 0;
  const bottom = items.length ? rows.getTotalSize() - items[items.length - 1]!.end : 0;
  const width = 72 + columns.reduce((n, c) => n + (WIDTHS[c.type] ?? 190), 0);

  return (
    <div class="build-grid-scroll" ref={scroller} data-testid="build-grid">
      <table
        class="build-grid"
        role="grid"
        aria-label={t.gridTitle}
        aria-rowcount={index.rowCount + 1}
        aria-colcount={columns.length + 1}
        aria-describedby="build-grid-help"
        style={{ width: `${width}px` }}
        onKeyDown={onKeyDown}
      >
        <colgroup>
          <col class="build-col-row" />
          {columns.map((c) => (
            <col key={c.name} style={{ width: `${WIDTHS[c.type] ?? 190}px` }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t.rowHeader}</th>
            {columns.map((c) => (
              <th key={c.name} scope="col" title={c.labels[props.lang]}>
                <span class="build-col-name">{c.name}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {top > 0 && <Spacer height={top} span={columns.length + 1} />}
          {items.map((item) => (
            <GridRow
              key={item.index}
              t={t}
              body={body}
              index={index}
              columns={columns}
              problems={props.problems}
              places={props.places}
              row={item.index}
              activeCol={tabRow === item.index ? active.col : -1}
              editing={editing && active.row === item.index}
              targetColumn={target?.row === item.index ? target.column : null}
              actions={actions}
            />
          ))}
          {bottom > 0 && <Spacer height={bottom} span={columns.length + 1} />}
        </tbody>
      </table>
    </div>
  );
}

function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr class="build-spacer" aria-hidden="true">
      <td colSpan={span} style={{ height: `${height}px` }} />
    </tr>
  );
}

/** What a row asks of the grid; one object for the grid's life, so that rows in view stay unchanged on a scroll. */
interface RowActions {
  click: (row: number, col: number) => void;
  focus: (row: number, col: number) => void;
  edit: (row: number, col: number) => void;
  stopEditing: (text: string | null) => void;
}

type RowProps = Pick<GridProps, 't' | 'body' | 'index' | 'columns' | 'problems' | 'places'> & {
  row: number;
  /** The column of the cell Tab reaches (the active one) when it is in this row, else -1. */
  activeCol: number;
  /** Whether the active cell of this row is being edited. */
  editing: boolean;
  /** The column of the cell a problem asked to show, when it is in this row. */
  targetColumn: string | null;
  actions: RowActions;
};

/** Re-rendered only when one of its props changes (a scroll leaves the rows in view as they are). */
const GridRow = memo(function GridRow(props: RowProps) {
  const { t, body, index, columns, row, activeCol, targetColumn, actions } = props;
  const at = index.at(row);
  const shared = index.span(at.declaration);
  // The row of the person's sheet it was read from (the grid's own number for a body not imported).
  const sheetRow = sheetRowOf(props.places, row);
  const rowName = sheetRow === null ? t.row(row + 1) : t.sheetRow(sheetRow);
  return (
    <tr aria-rowindex={row + 2} class={targetColumn !== null ? 'build-target-row' : undefined}>
      <th scope="row" class="build-row-head" title={rowName}>
        {sheetRow ?? row + 1}
      </th>
      {columns.map((column, col) => {
        const problems = props.problems.get(cellKey(row, column.name));
        const descId = problems ? `build-cell-${row}-${col}` : undefined;
        const bad = problems?.some((p) => p.severity === 'error');
        const classes = [
          'build-cell',
          bad ? 'build-bad' : problems ? 'build-warn' : '',
          column.level === 'declaration' ? 'build-decl' : '',
          targetColumn === column.name ? 'build-target' : '',
        ];
        // Where the value is in the person's sheet: its cell, or its row for a column the sheet lacks.
        const where = cellRef(props.places, row, column.name) ?? rowName;
        const title = [
          where,
          column.level === 'declaration' && shared > 1 ? t.sharedCell(shared) : '',
          ...(problems ?? []).map((p) => p.message),
        ]
          .filter(Boolean)
          .join('\n');
        const text = cellText(body, at, column);
        return (
          <td
            key={column.name}
            class={classes.filter(Boolean).join(' ')}
            tabIndex={activeCol === col ? 0 : -1}
            data-cell={`${row}:${col}`}
            data-column={column.name}
            aria-invalid={bad ? 'true' : undefined}
            aria-describedby={descId}
            title={title || undefined}
            onClick={() => actions.click(row, col)}
            onFocus={() => actions.focus(row, col)}
            onDblClick={() => actions.edit(row, col)}
          >
            {activeCol === col && props.editing ? (
              <CellEditor
                column={column}
                value={text}
                label={t.editLabel(column.name, rowName)}
                empty={t.empty}
                onDone={actions.stopEditing}
              />
            ) : (
              text
            )}
            {problems && (
              <span id={descId} hidden>
                {[where, ...problems.map((p) => p.message)].join(' — ')}
              </span>
            )}
          </td>
        );
      })}
    </tr>
  );
});

interface EditorProps {
  column: ColumnSpec;
  value: string;
  label: string;
  empty: string;
  onDone: (text: string | null) => void;
}

/** An input (or a select for OUI/NON and enumerations) in place: Enter or leaving keeps, Escape cancels. */
function CellEditor({ column, value, label, empty, onDone }: EditorProps) {
  const field = useRef<HTMLInputElement & HTMLSelectElement>(null);
  const done = useRef(false);
  useLayoutEffect(() => {
    field.current?.focus();
    if (field.current instanceof HTMLInputElement) field.current.select();
  }, []);
  const finish = (text: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(text === value ? null : text);
  };
  const onKeyDown = (event: TargetedKeyboardEvent<HTMLElement>) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      finish(null);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      finish(field.current?.value ?? null);
    }
  };
  const choices = choicesOf(column);
  if (choices) {
    const options = choices.includes(value) || value === '' ? choices : [value, ...choices];
    return (
      <select
        ref={field}
        class="build-editor"
        aria-label={label}
        value={value}
        onKeyDown={onKeyDown}
        onBlur={() => finish(field.current?.value ?? null)}
      >
        <option value="">{empty}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      ref={field}
      type="text"
      class="build-editor"
      aria-label={label}
      value={value}
      onKeyDown={onKeyDown}
      onBlur={() => finish(field.current?.value ?? null)}
    />
  );
}
