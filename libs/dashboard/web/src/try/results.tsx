/**
 * Try it's result, as the server rendered it before the check moved to the browser (the markup and
 * classes of libs/dashboard's styles): the verdict, the counts, the errors grouped by code and by
 * column, every listed error and warning, and the error report to download. Only codes, columns,
 * rows and the catalogue's messages are shown: never a value of the file.
 */
import type { FileValidationResponse, Issue } from '@ppfile/rules';
import { errorReportHref, groupIssues, reportName, type IssueGroup } from '../../../src/error-report';
import type { Texts } from './texts';

/** Rows shown per group before "and N more" (the report and the full list have them all). */
const ROWS_SHOWN = 20;
/** Errors listed on the page (the report has every listed error, up to the API's 1,000). */
const ERRORS_SHOWN = 200;

export interface Formats {
  number(n: number): string;
}

function RowList({ t, f, rows }: { t: Texts; f: Formats; rows: readonly number[] }) {
  if (!rows.length) return <span class="muted">—</span>;
  const shown = rows
    .slice(0, ROWS_SHOWN)
    .map((r) => f.number(r))
    .join(', ');
  const more = rows.length - ROWS_SHOWN;
  return (
    <span class="rowlist">
      {shown}
      {more > 0 ? ` ${t.moreRows(f.number(more))}` : ''}
    </span>
  );
}

function GroupTable(props: {
  t: Texts;
  f: Formats;
  title: string;
  keyTitle: string;
  groups: readonly IssueGroup[];
  id: string;
}) {
  const { t, f, groups, id } = props;
  return (
    <>
      <h3 id={id}>{props.title}</h3>
      <div class="table-wrap">
        <table class="cards" data-group={id}>
          <thead>
            <tr>
              <th scope="col">{props.keyTitle}</th>
              <th scope="col" class="num">
                {t.count}
              </th>
              <th scope="col">{t.rows}</th>
              <th scope="col">{t.example}</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.key ?? ''}>
                <td class="lead">
                  {g.key === null ? <span class="muted">{t.fileLevel}</span> : <code>{g.key}</code>}
                </td>
                <td class="num" data-label={t.count}>
                  {f.number(g.count)}
                </td>
                <td data-label={t.rows}>
                  <RowList t={t} f={f} rows={g.rows} />
                </td>
                <td class="text" data-label={t.example}>
                  {g.example}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function IssuesTable({ t, issues, id }: { t: Texts; issues: readonly Issue[]; id: string }) {
  return (
    <div class="table-wrap">
      <table class="cards" id={id}>
        <thead>
          <tr>
            <th scope="col" class="num">
              {t.row}
            </th>
            <th scope="col">{t.column}</th>
            <th scope="col">{t.code}</th>
            <th scope="col">{t.message}</th>
          </tr>
        </thead>
        <tbody>
          {issues.slice(0, ERRORS_SHOWN).map((e, i) => (
            <tr key={i}>
              <td class="num" data-label={t.row}>
                {e.row ?? '—'}
              </td>
              <td data-label={t.column}>
                {e.column ? <code>{e.column}</code> : <span class="muted">{t.fileLevel}</span>}
              </td>
              <td data-label={t.code}>
                <code>{e.code}</code>
              </td>
              <td class="text" data-label={t.message}>
                {e.message}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ResultCard({
  t,
  f,
  filename,
  result: r,
}: {
  t: Texts;
  f: Formats;
  filename: string;
  result: FileValidationResponse;
}) {
  const ok = r.valid;
  const verdict = ok ? t.valid : r.file_rejected ? t.rejected : t.invalid;
  const groups = groupIssues(r);
  return (
    <div class="card" id="result">
      <div class={`verdict ${ok ? 'ok' : 'bad'}`}>
        <div class="icon" aria-hidden="true">
          {ok ? '✓' : '✕'}
        </div>
        <div>
          <h2 data-valid={String(ok)} tabIndex={-1}>
            {verdict}
          </h2>
          <span class="filename">{filename}</span>
        </div>
      </div>
      <div class="counts">
        <div>
          <b>{f.number(r.rows_total)}</b>
          <span>{t.rowsTotal}</span>
        </div>
        <div>
          <b>{f.number(r.rows_valid)}</b>
          <span>{t.rowsValid}</span>
        </div>
        <div>
          <b class={r.rows_invalid ? 'bad' : undefined}>{f.number(r.rows_invalid)}</b>
          <span>{t.rowsInvalid}</span>
        </div>
        <div>
          <b data-error-count={r.error_count} class={r.error_count ? 'bad' : undefined}>
            {f.number(r.error_count)}
          </b>
          <span>{t.errors}</span>
        </div>
        <div>
          <b class={r.warning_count ? 'warn' : undefined}>{f.number(r.warning_count)}</b>
          <span>{t.warnings}</span>
        </div>
      </div>
      {ok ? <p class="muted small">{t.validNote}</p> : null}
      {r.truncated ? (
        <div class="alert info" role="status">
          <p>{t.truncated(f.number(r.errors.length))}</p>
        </div>
      ) : null}
      {r.errors.length || r.warnings.length ? <p class="muted small">{t.rowNote}</p> : null}
      {r.errors.length ? (
        <>
          <div class="actions-row">
            <a class="btn" id="error-report" href={errorReportHref(r.errors)} download={reportName(filename)}>
              {t.downloadReport}
            </a>
          </div>
          <GroupTable t={t} f={f} title={t.byCode} keyTitle={t.code} groups={groups.byCode} id="by-code" />
          {groups.byColumn.length ? (
            <GroupTable
              t={t}
              f={f}
              title={t.byColumn}
              keyTitle={t.column}
              groups={groups.byColumn}
              id="by-column"
            />
          ) : null}
          <h3>{t.allErrors}</h3>
          <IssuesTable t={t} issues={r.errors} id="errors" />
        </>
      ) : null}
      {r.warnings.length ? (
        <>
          <h3>{t.warnings}</h3>
          <IssuesTable t={t} issues={r.warnings} id="warnings" />
        </>
      ) : null}
    </div>
  );
}
