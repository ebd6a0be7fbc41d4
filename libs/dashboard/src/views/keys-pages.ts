import type { ApiKeyInfo, KeyMode } from '@ppfile/db';
import { html, type Html } from '../html';
import { alert, csrfField, layout, pageHead, type ViewContext } from './layout';

export const KEY_NAME_MAX = 100;

/** How a key is named in sentences: its name and display prefix. */
export function keyTitle(key: ApiKeyInfo): string {
  return key.name ? `“${key.name}” (${key.prefix}…)` : `${key.prefix}…`;
}

/** Active keys first, newest first; then revoked ones, most recently revoked first. */
export function sortKeys(keys: readonly ApiKeyInfo[]): ApiKeyInfo[] {
  return [...keys].sort((a, b) => {
    if (!a.revokedAt !== !b.revokedAt) return a.revokedAt ? 1 : -1;
    const at = (k: ApiKeyInfo) => (k.revokedAt ?? k.createdAt).getTime();
    return at(b) - at(a);
  });
}

function keysTable(ctx: ViewContext, keys: readonly ApiKeyInfo[], now: Date): Html {
  const { t, f } = ctx;
  return html`<div class="table-wrap">
    <table class="cards">
      <thead>
        <tr>
          <th>${t.keys.name}</th>
          <th>${t.keys.mode}</th>
          <th>${t.keys.prefix}</th>
          <th>${t.keys.created}</th>
          <th>${t.keys.lastUsed}</th>
          <th>${t.keys.status}</th>
          <th><span class="visually-hidden">${t.keys.revoke}</span></th>
        </tr>
      </thead>
      <tbody>
        ${sortKeys(keys).map(
          (k) =>
            html`<tr data-key-id="${k.id}" ${k.revokedAt ? html` class="dim"` : ''}>
              <td class="lead">${k.name ?? html`<span class="muted">${t.keys.unnamed}</span>`}</td>
              <td data-label="${t.keys.mode}"><span class="badge ${k.mode}">${t.modes[k.mode]}</span></td>
              <td data-label="${t.keys.prefix}"><code>${k.prefix}…</code></td>
              <td data-label="${t.keys.created}">${f.date(k.createdAt)}</td>
              <td data-label="${t.keys.lastUsed}">
                ${k.lastUsedAt ? html`<span title="${f.dateTime(k.lastUsedAt)}">${f.ago(k.lastUsedAt, now)}</span>` : html`<span class="muted">${t.keys.never}</span>`}
              </td>
              <td data-label="${t.keys.status}">
                ${k.revokedAt ? html`<span class="badge revoked">${t.keys.revokedOn(f.date(k.revokedAt))}</span>` : html`<span class="badge active">${t.keys.active}</span>`}
              </td>
              <td class="actions">
                ${
                  k.revokedAt
                    ? ''
                    : html`<form
                        class="inline-form"
                        method="post"
                        action="/dashboard/keys/${k.id}/revoke"
                        data-confirm="${t.keys.revokeConfirm(keyTitle(k))}"
                      >
                        ${csrfField(ctx)}<button type="submit" class="btn small danger-outline">
                          ${t.keys.revoke}
                        </button>
                      </form>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export interface KeysView {
  keys: ApiKeyInfo[];
  now: Date;
  notice?: string;
  error?: string;
  /** What the create form held when it was refused. */
  form?: { name: string; mode: KeyMode };
}

export function keysPage(ctx: ViewContext, view: KeysView): Html {
  const { t } = ctx;
  const mode = view.form?.mode ?? 'test';
  const choice = (value: KeyMode, title: string, help: string) =>
    html`<label class="choice"
      ><input type="radio" name="mode" value="${value}" ${mode === value ? html` checked` : ''} /><span
        ><strong>${title}</strong><span>${help}</span></span
      ></label
    >`;
  return layout(ctx, {
    title: t.keys.title,
    active: 'keys',
    body: html`${pageHead(t.keys.title, html`${t.keys.introBefore} <code>${t.keys.introHeader}</code>. ${t.keys.introAfter}`)}
      ${view.notice ? alert('ok', view.notice) : ''}
      <div class="card">
        ${view.keys.length ? keysTable(ctx, view.keys, view.now) : html`<p class="empty">${t.keys.none}</p>`}
      </div>
      <div class="card" id="create">
        <h2>${t.keys.createTitle}</h2>
        ${view.error ? alert('error', view.error) : ''}
        <form class="stack" method="post" action="/dashboard/keys">
          ${csrfField(ctx)}
          <div>
            <label for="key-name">${t.keys.nameLabel}</label>
            <input
              id="key-name"
              name="name"
              type="text"
              maxlength="${KEY_NAME_MAX}"
              placeholder="${t.keys.namePlaceholder}"
              value="${view.form?.name ?? ''}"
            />
          </div>
          <fieldset>
            <legend>${t.keys.mode}</legend>
            ${choice('test', t.keys.modeTest, t.keys.modeTestHelp)}
            ${choice('live', t.keys.modeLive, t.keys.modeLiveHelp)}
          </fieldset>
          <div><button class="btn" type="submit">${t.keys.createSubmit}</button></div>
        </form>
      </div>`,
  });
}

/** The one time a key is shown: with a copy button, a warning, and an example call. */
export function createdKeyPage(
  ctx: ViewContext,
  view: { key: string; mode: KeyMode; name: string | null; baseUrl: string },
): Html {
  const { t } = ctx;
  return layout(ctx, {
    title: t.keys.createdTitle,
    active: 'keys',
    once: true,
    body: html`${pageHead(t.keys.createdTitle)}
      <div class="card">
        <p>
          <span class="badge ${view.mode}">${t.modes[view.mode]}</span>
          ${view.name ?? html`<span class="muted">${t.keys.unnamed}</span>`}
        </p>
        ${alert('warn', t.keys.createdWarning)}
        <div class="secret">
          <code id="new-key">${view.key}</code>
          <button type="button" class="btn" data-copy="new-key" data-copied="${t.keys.copied}" hidden>
            ${t.keys.copy}
          </button>
        </div>
        <p class="muted">${t.keys.example}</p>
        <pre class="example">curl -H "Authorization: Bearer ${view.key}" ${view.baseUrl}/v1/spec</pre>
        <a class="btn secondary" href="/dashboard/keys">${t.keys.done}</a>
      </div>`,
  });
}

/** The confirmation of a revocation, for browsers without the page's script. */
export function revokeConfirmPage(ctx: ViewContext, key: ApiKeyInfo): Html {
  const { t, f } = ctx;
  return layout(ctx, {
    title: t.keys.revokeTitle,
    active: 'keys',
    body: html`${pageHead(t.keys.revokeTitle)}
      <div class="card">
        <dl class="facts">
          <dt>${t.keys.name}</dt>
          <dd>${key.name ?? t.keys.unnamed}</dd>
          <dt>${t.keys.prefix}</dt>
          <dd><code>${key.prefix}…</code> <span class="badge ${key.mode}">${t.modes[key.mode]}</span></dd>
          <dt>${t.keys.created}</dt>
          <dd>${f.dateTime(key.createdAt)}</dd>
          <dt>${t.keys.lastUsed}</dt>
          <dd>${key.lastUsedAt ? f.dateTime(key.lastUsedAt) : t.keys.never}</dd>
        </dl>
        <div class="spacer"></div>
        ${alert('warn', t.keys.revokeText)}
        <form method="post" action="/dashboard/keys/${key.id}/revoke" class="actions-row">
          ${csrfField(ctx)}
          <input type="hidden" name="confirmed" value="1" />
          <button type="submit" class="btn danger">${t.keys.revokeSubmit}</button>
          <a class="btn secondary" href="/dashboard/keys">${t.keys.cancel}</a>
        </form>
      </div>`,
  });
}
