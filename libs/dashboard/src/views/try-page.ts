import type { FileValidationResponse, Issue } from '@ppfile/rules';
import { errorReportHref, groupIssues, type IssueGroup } from '../error-report';
import { html, trustedHtml, type Html } from '../html';
import { alert, csrfField, layout, pageHead, type ViewContext } from './layout';

export interface TryForm {
  type: string;
  declarant: string;
  strict: boolean;
}

export interface TryView {
  form: TryForm;
  /** A refusal before any row was read (no file, too large, too many rows, wrong type). */
  refusal?: string;
  result?: { filename: string; response: FileValidationResponse };
}

/** Rows shown per group before "and N more" (the report and the full list have them all). */
const ROWS_SHOWN = 20;
/** Errors listed on the page (the report has every listed error, up to the API's 1,000). */
const ERRORS_SHOWN = 200;

const UPLOAD_ICON = trustedHtml(
  '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M12 16V4"/><path d="M7 9l5-5 5 5"/><path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"/></svg>',
);

function rowList(ctx: ViewContext, rows: readonly number[]): Html {
  if (!rows.length) return html`<span class="muted">—</span>`;
  const shown = rows
    .slice(0, ROWS_SHOWN)
    .map((r) => ctx.f.number(r))
    .join(', ');
  const more = rows.length - ROWS_SHOWN;
  return html`<span class="rowlist"
    >${shown}${more > 0 ? ` ${ctx.t.tryIt.moreRows(ctx.f.number(more))}` : ''}</span
  >`;
}

function groupTable(
  ctx: ViewContext,
  title: string,
  keyTitle: string,
  groups: readonly IssueGroup[],
  id: string,
): Html {
  const { t, f } = ctx;
  return html`<h3 id="${id}">${title}</h3>
    <div class="table-wrap">
      <table class="cards" data-group="${id}">
        <thead>
          <tr>
            <th>${keyTitle}</th>
            <th class="num">${t.tryIt.count}</th>
            <th>${t.tryIt.rows}</th>
            <th>${t.tryIt.example}</th>
          </tr>
        </thead>
        <tbody>
          ${groups.map(
            (g) =>
              html`<tr>
                <td class="lead">
                  ${g.key === null ? html`<span class="muted">${t.tryIt.fileLevel}</span>` : html`<code>${g.key}</code>`}
                </td>
                <td class="num" data-label="${t.tryIt.count}">${f.number(g.count)}</td>
                <td data-label="${t.tryIt.rows}">${rowList(ctx, g.rows)}</td>
                <td class="text" data-label="${t.tryIt.example}">${g.example}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function issuesTable(ctx: ViewContext, issues: readonly Issue[], id: string): Html {
  const { t } = ctx;
  return html`<div class="table-wrap">
    <table class="cards" id="${id}">
      <thead>
        <tr>
          <th class="num">${t.tryIt.row}</th>
          <th>${t.tryIt.column}</th>
          <th>${t.tryIt.code}</th>
          <th>${t.tryIt.message}</th>
        </tr>
      </thead>
      <tbody>
        ${issues.slice(0, ERRORS_SHOWN).map(
          (e) =>
            html`<tr>
              <td class="num" data-label="${t.tryIt.row}">${e.row ?? '—'}</td>
              <td data-label="${t.tryIt.column}">
                ${e.column ? html`<code>${e.column}</code>` : html`<span class="muted">${t.tryIt.fileLevel}</span>`}
              </td>
              <td data-label="${t.tryIt.code}"><code>${e.code}</code></td>
              <td class="text" data-label="${t.tryIt.message}">${e.message}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function resultCard(ctx: ViewContext, filename: string, r: FileValidationResponse): Html {
  const { t, f } = ctx;
  const ok = r.valid;
  const verdict = ok ? t.tryIt.valid : r.file_rejected ? t.tryIt.rejected : t.tryIt.invalid;
  const groups = groupIssues(r);
  return html`<div class="card" id="result">
      <div class="verdict ${ok ? 'ok' : 'bad'}">
        <div class="icon" aria-hidden="true">${ok ? '✓' : '✕'}</div>
        <div><h2 data-valid="${String(ok)}">${verdict}</h2><span class="filename">${filename}</span></div>
      </div>
      <div class="counts">
        <div><b>${f.number(r.rows_total)}</b><span>${t.tryIt.rowsTotal}</span></div>
        <div><b>${f.number(r.rows_valid)}</b><span>${t.tryIt.rowsValid}</span></div>
        <div><b${r.rows_invalid ? html` class="bad"` : ''}>${f.number(r.rows_invalid)}</b><span>${t.tryIt.rowsInvalid}</span></div>
        <div><b data-error-count="${r.error_count}"${r.error_count ? html` class="bad"` : ''}>${f.number(r.error_count)}</b><span>${t.tryIt.errors}</span></div>
        <div><b${r.warning_count ? html` class="warn"` : ''}>${f.number(r.warning_count)}</b><span>${t.tryIt.warnings}</span></div>
      </div>
      ${ok ? html`<p class="muted small">${t.tryIt.validNote}</p>` : ''}
      ${r.truncated ? alert('info', t.tryIt.truncated(f.number(r.errors.length))) : ''}
      ${r.errors.length || r.warnings.length ? html`<p class="muted small">${t.tryIt.rowNote}</p>` : ''}
      ${
        r.errors.length
          ? html`<div class="actions-row">
                <a
                  class="btn"
                  id="error-report"
                  href="${errorReportHref(r.errors)}"
                  download="${reportName(filename)}"
                  >${t.tryIt.downloadReport}</a
                >
              </div>
              ${groupTable(ctx, t.tryIt.byCode, t.tryIt.code, groups.byCode, 'by-code')}
              ${groups.byColumn.length ? groupTable(ctx, t.tryIt.byColumn, t.tryIt.column, groups.byColumn, 'by-column') : ''}
              <h3>${t.tryIt.allErrors}</h3>
              ${issuesTable(ctx, r.errors, 'errors')}`
          : ''
      }
      ${
        r.warnings.length
          ? html`<h3>${t.tryIt.warnings}</h3>
              ${issuesTable(ctx, r.warnings, 'warnings')}`
          : ''
      }
    </div>`;
}

/** "ppfile_adf_20261122_1a2b3c4d.csv" → "ppfile_adf_20261122_1a2b3c4d-errors.csv" (safe characters only). */
export function reportName(filename: string): string {
  const base =
    filename
      .replace(/\.csv$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .slice(0, 80) || 'file';
  return `${base}-errors.csv`;
}

export function tryPage(ctx: ViewContext, view: TryView): Html {
  const { t } = ctx;
  const { form } = view;
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}" ${value === current ? html` selected` : ''}>${label}</option>`;
  return layout(ctx, {
    title: t.tryIt.title,
    active: 'try',
    body: html`${pageHead(t.tryIt.title, t.tryIt.intro)}
      ${view.result ? resultCard(ctx, view.result.filename, view.result.response) : ''}
      <div class="card">
        ${view.result ? html`<h2>${t.tryIt.again}</h2>` : ''}
        ${view.refusal ? alert('error', view.refusal) : ''}
        <form
          class="try-form"
          method="post"
          action="/dashboard/try"
          enctype="multipart/form-data"
          data-busy="${t.tryIt.checking}"
        >
          ${csrfField(ctx)}
          <div class="dropzone" data-chosen="${t.tryIt.chosen}">
            ${UPLOAD_ICON}
            <div class="big">${t.tryIt.drop}</div>
            <div class="muted">
              ${t.tryIt.or} <label for="file" class="linklike-label">${t.tryIt.choose}</label>
            </div>
            <input
              id="file"
              class="visually-hidden"
              name="file"
              type="file"
              accept=".csv,text/csv"
              required
            />
            <div class="chosen" aria-live="polite"></div>
          </div>
          <div class="row-form">
            <div>
              <label for="type">${t.tryIt.type}</label>
              <select id="type" name="type">
                ${option('adf', t.tryIt.typeAdf, form.type)}${option('jdr', t.tryIt.typeJdr, form.type)}
              </select>
            </div>
            <div>
              <label for="declarant">${t.tryIt.declarant}</label>
              <select id="declarant" name="declarant">
                ${option('training_organization', t.tryIt.declarantOf, form.declarant)}${option('employer', t.tryIt.declarantEmployer, form.declarant)}
              </select>
            </div>
          </div>
          <label class="check"
            ><input
              type="checkbox"
              name="strict_references"
              value="true"
              ${form.strict ? html` checked` : ''}
            />
            ${t.tryIt.strict}</label
          >
          <div><button class="btn" type="submit">${t.tryIt.submit}</button></div>
        </form>
      </div>`,
  });
}
