import { isDashboardKey, type ApiKeyInfo, type FileRecord } from '@ppfile/db';
import { html, type Html } from '../html';
import type { Messages } from '../i18n';
import { alert, layout, pageHead, type ViewContext } from './layout';

export type FileState = 'processing' | 'available' | 'not_stored' | 'expired' | 'failed';

/** What the list shows of a file: its state as of now (an available file past its expiry reads expired). */
export function stateOf(file: FileRecord, now: Date): FileState {
  if (file.status === 'available' && file.expiresAt && file.expiresAt <= now) return 'expired';
  return file.status;
}

/** The creating key: its display prefix (which says live or test) and its name. */
function keyLabel(t: Messages, key: ApiKeyInfo | undefined): Html {
  if (!key) return html`<span class="muted">—</span>`;
  if (isDashboardKey(key)) return html`<span>${t.files.dashboardKey}</span>`;
  return html`<span class="mono">${key.prefix}…</span
    >${key.name ? html`<span class="sub">${key.name}</span>` : ''}`;
}

/** file_ and the first 8 hex characters; the whole id in the tooltip (and in the row's data attribute). */
function shortId(id: string): Html {
  return html`<span class="sub mono" title="${id}">${id.slice(0, 13)}…</span>`;
}

/** The expiry cell: "in 23 h 05 min", counted down by the page's script. */
function expiryCell(ctx: ViewContext, file: FileRecord, state: FileState, now: Date): Html {
  if (!file.expiresAt || state === 'not_stored' || state === 'failed')
    return html`<span class="muted">—</span>`;
  if (state === 'expired') return html`<span class="muted">${ctx.t.files.expired}</span>`;
  const left = ctx.f.duration(file.expiresAt.getTime() - now.getTime());
  const template = ctx.t.files.inTime('{}');
  return html`<span
      data-expires="${file.expiresAt.toISOString()}"
      data-in="${template}"
      data-expired="${ctx.t.files.expired}"
      data-day="${ctx.lang === 'fr' ? 'j' : 'd'}"
      >${ctx.t.files.inTime(left)}</span
    >
    <span class="sub">${ctx.f.shortDateTime(file.expiresAt, now)}</span>`;
}

export function filesTable(
  ctx: ViewContext,
  files: readonly FileRecord[],
  keys: ReadonlyMap<string, ApiKeyInfo>,
  now: Date,
): Html {
  const { t, f } = ctx;
  return html`<div class="table-wrap">
    <table class="cards">
      <thead>
        <tr>
          <th>${t.files.file}</th>
          <th>${t.files.kind}</th>
          <th>${t.files.key}</th>
          <th>${t.files.status}</th>
          <th class="num">${t.files.rows}</th>
          <th>${t.files.created}</th>
          <th>${t.files.expires}</th>
          <th class="num"><span class="visually-hidden">${t.files.download}</span></th>
        </tr>
      </thead>
      <tbody>
        ${files.map((file) => {
          const state = stateOf(file, now);
          return html`<tr data-file-id="${file.id}">
            <td class="lead"><span class="filename">${file.filename}</span>${shortId(file.id)}</td>
            <td data-label="${t.files.kind}">
              <span
                >${file.type.toUpperCase()}<span class="sub"
                  >${file.declarant === 'employer' ? t.tryIt.declarantEmployer : t.tryIt.declarantOf}</span
                ></span
              >
            </td>
            <td data-label="${t.files.key}"><span>${keyLabel(t, keys.get(file.apiKeyId))}</span></td>
            <td data-label="${t.files.status}">
              <span class="badge ${state}">${t.files[`status_${state}`]}</span>
            </td>
            <td class="num" data-label="${t.files.rows}">${f.number(file.rows)}</td>
            <td class="when" data-label="${t.files.created}" title="${f.dateTime(file.createdAt)}">
              ${f.shortDateTime(file.createdAt, now)}
            </td>
            <td class="when" data-label="${t.files.expires}">
              <span>${expiryCell(ctx, file, state, now)}</span>
            </td>
            <td class="actions">
              ${state === 'available' ? html`<a class="btn small secondary" href="/dashboard/files/${file.id}/download" download>${t.files.download}</a>` : ''}
            </td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

export interface FilesView {
  files: FileRecord[];
  keys: ReadonlyMap<string, ApiKeyInfo>;
  total: number;
  page: number;
  pages: number;
  now: Date;
}

export function filesPage(ctx: ViewContext, view: FilesView): Html {
  const { t } = ctx;
  const pager =
    view.pages > 1
      ? html`<div class="pager">
          <span
            >${view.page > 1 ? html`<a href="/dashboard/files?page=${view.page - 1}">${t.files.previous}</a>` : ''}</span
          >
          <span>${t.files.pageOf(view.page, view.pages, ctx.f.number(view.total))}</span>
          <span
            >${view.page < view.pages ? html`<a href="/dashboard/files?page=${view.page + 1}">${t.files.next}</a>` : ''}</span
          >
        </div>`
      : '';
  return layout(ctx, {
    title: t.files.title,
    active: 'files',
    body: html`${pageHead(t.files.title, t.files.intro)}
      <div class="card">
        ${view.files.length ? filesTable(ctx, view.files, view.keys, view.now) : html`<p class="empty">${t.files.none}</p>`}
        ${pager}
      </div>`,
  });
}

/** Why a file cannot be downloaded, as a page. */
export function fileNotDownloadablePage(ctx: ViewContext, state: FileState): Html {
  const { t } = ctx;
  const text =
    state === 'not_stored'
      ? t.files.notStored
      : state === 'processing'
        ? t.files.processing
        : state === 'failed'
          ? t.files.failed
          : t.files.expiredText;
  return layout(ctx, {
    title: t.files.notAvailable,
    active: 'files',
    body: html`${pageHead(t.files.notAvailable)} ${alert(state === 'processing' ? 'info' : 'warn', text)}
      <p><a class="btn secondary" href="/dashboard/files">${t.files.back}</a></p>`,
  });
}
