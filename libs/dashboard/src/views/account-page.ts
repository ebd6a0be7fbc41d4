import type { DashboardUser } from '@ppfile/db';
import { html, type Html } from '../html';
import type { PasswordProblem } from '../passwords';
import { newPasswordFields, passwordProblemText } from './auth-pages';
import { alert, csrfField, layout, pageHead, type ViewContext } from './layout';

export interface AccountView {
  me: DashboardUser;
  people: DashboardUser[];
  changed: boolean;
  error?: { wrongCurrent?: boolean; problem?: PasswordProblem; throttledMinutes?: number };
}

export function accountPage(ctx: ViewContext, view: AccountView): Html {
  const { t, f } = ctx;
  const user = ctx.user!;
  const error = view.error;
  const errorText = error?.wrongCurrent
    ? t.account.wrongCurrent
    : error?.problem
      ? passwordProblemText(t, error.problem)
      : error?.throttledMinutes
        ? t.signIn.throttled(error.throttledMinutes)
        : null;
  return layout(ctx, {
    title: t.account.title,
    active: 'account',
    body: html`${pageHead(t.account.title)} ${view.changed ? alert('ok', t.account.changed) : ''}
      <div class="grid grid-2">
        <div class="col">
          <div class="card" id="change-password">
            <h2>${t.account.changePassword}</h2>
            ${errorText ? alert('error', errorText) : ''}
            <form class="stack" method="post" action="/dashboard/account/password">
              ${csrfField(ctx)}
              <input type="text" name="username" autocomplete="username" value="${view.me.email}" hidden />
              <div>
                <label for="current">${t.account.current}</label>
                <input id="current" name="current" type="password" autocomplete="current-password" required />
              </div>
              ${newPasswordFields(t)}
              <div><button class="btn" type="submit">${t.account.changeSubmit}</button></div>
            </form>
          </div>
          <div class="card">
            <h2>${t.account.everywhere}</h2>
            <p class="muted">${t.account.everywhereText}</p>
            <form method="post" action="/dashboard/account/sign-out-everywhere">
              ${csrfField(ctx)}
              <button class="btn danger-outline" type="submit">${t.account.everywhereSubmit}</button>
            </form>
          </div>
        </div>
        <div class="col">
          <div class="card">
            <dl class="facts">
              <dt>${t.account.email}</dt>
              <dd>${view.me.email}</dd>
              <dt>${t.account.organization}</dt>
              <dd>${user.organization.name}</dd>
              <dt>${t.account.plan}</dt>
              <dd>${t.plans[user.organization.plan]}</dd>
              <dt>${t.account.memberSince}</dt>
              <dd>${f.date(view.me.createdAt)}</dd>
            </dl>
          </div>
          <div class="card">
            <h2>${t.account.people}</h2>
            <ul>
              ${view.people.map(
                (p) =>
                  html`<li>
                    ${p.email}${p.id === view.me.id ? html` <span class="muted">(${t.account.you})</span>` : ''}${p.passwordHash === null ? html` <span class="badge">${t.account.invited}</span>` : ''}
                  </li>`,
              )}
            </ul>
            <p class="muted small">${t.account.peopleHelp} <code>ppfile admin user create</code>.</p>
          </div>
        </div>
      </div>`,
  });
}
