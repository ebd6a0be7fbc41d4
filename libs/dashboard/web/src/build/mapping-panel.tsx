/**
 * The detected mapping: each header of the sheet, the official column it fills and how it was
 * recognised; a select per header changes it (or ignores the header), then the file is imported
 * again with it, and the mapping may be saved for the organization (header texts and column names).
 */
import type { ColumnSpec } from '@ppfile/rules/format';
import type { ImportResult } from '../engine/protocol';
import type { HeaderMapping } from './server';
import type { Lang, Texts } from './texts';

interface MappingProps {
  t: Texts;
  lang: Lang;
  result: ImportResult;
  columns: readonly ColumnSpec[];
  draft: HeaderMapping;
  changed: boolean;
  busy: boolean;
  saved: boolean;
  onChange: (header: string, column: string | null) => void;
  onReimport: () => void;
  onSave: () => void;
}

export function MappingPanel(props: MappingProps) {
  const { t, result, draft } = props;
  const how = new Map(result.mapping.map((m) => [m.header, m.how]));
  const headers = Object.keys(draft);
  const ignored = headers.filter((h) => draft[h] === null).length;
  // Open when something needs a look: a required column not found, a header not recognised, a change.
  const open = result.missing_columns.length > 0 || ignored > 0 || props.changed;
  return (
    <div data-testid="build-mapping">
      <p class="muted">{t.mappingIntro}</p>
      {result.missing_columns.length > 0 && (
        <p class="alert warn" data-testid="build-missing-columns">
          {t.missing} <span class="mono">{result.missing_columns.join(', ')}</span>
        </p>
      )}
      <details class="build-mapping-details" open={open}>
        <summary>{t.mappingSummary(headers.length - ignored, ignored)}</summary>
        <div class="table-wrap">
          <table class="build-mapping-table">
            <thead>
              <tr>
                <th scope="col">{t.yourHeader}</th>
                <th scope="col">{t.officialColumn}</th>
                <th scope="col">{t.foundBy}</th>
              </tr>
            </thead>
            <tbody>
              {headers.map((header, i) => {
                const found = how.get(header);
                return (
                  <tr key={header}>
                    <th scope="row">
                      <label for={`build-map-${i}`} class="build-header-text">
                        {header}
                      </label>
                    </th>
                    <td>
                      <select
                        id={`build-map-${i}`}
                        data-header={header}
                        value={draft[header] ?? ''}
                        disabled={props.busy}
                        onChange={(e) => props.onChange(header, e.currentTarget.value || null)}
                      >
                        <option value="">{t.ignore}</option>
                        {props.columns.map((c) => (
                          <option key={c.name} value={c.name}>
                            {c.name} — {c.labels[props.lang]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td class="muted small">{found ? t.how[found] : t.notRecognised}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </details>
      <div class="build-actions">
        <button
          type="button"
          class={props.changed ? 'btn' : 'btn secondary'}
          disabled={props.busy}
          onClick={props.onReimport}
          data-testid="build-reimport"
        >
          {t.reimport}
        </button>
        <button
          type="button"
          class="btn secondary"
          disabled={props.busy}
          onClick={props.onSave}
          data-testid="build-save-mapping"
        >
          {t.saveMapping}
        </button>
      </div>
      <p class="field-help">{props.saved ? t.mappingSaved : t.mappingNote}</p>
    </div>
  );
}
