import type { PasswordProblem } from '../passwords';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords';
import { html, type Html } from '../html';
import type { Messages } from '../i18n';
import { CSRF_FIELD } from '../session-cookies';
import { alert, layout, type ViewContext } from './layout';

export interface SignInView {
  csrf: string;
  next: string;
  email?: string;
  notice?: { kind: 'ok' | 'error' | 'warn' | 'info'; text: string };
}

export function signInPage(ctx: ViewContext, view: SignInView): Html {
  const { t } = ctx;
  return layout(ctx, {
    title: t.signIn.title,
    body: html`<div class="auth">
      <div class="card">
        <h1>${t.signIn.title}</h1>
        <p class="muted">${t.signIn.intro}</p>
        ${view.notice ? alert(view.notice.kind, view.notice.text) : ''}
        <form class="stack" method="post" action="/dashboard/sign-in">
          <input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}" />
          <input type="hidden" name="next" value="${view.next}" />
          <div>
            <label for="email">${t.signIn.email}</label>
            <input
              id="email"
              name="email"
              type="email"
              autocomplete="username"
              required
              maxlength="254"
              value="${view.email ?? ''}"
              ${view.email ? '' : html`autofocus`}
            />
          </div>
          <div>
            <label for="password">${t.signIn.password}</label>
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="current-password"
              required
              maxlength="${PASSWORD_MAX_LENGTH}"
              ${view.email ? html`autofocus` : ''}
            />
          </div>
          <div><button class="btn" type="submit">${t.signIn.submit}</button></div>
        </form>
      </div>
      <p class="muted small">${t.signIn.noAccount}</p>
    </div>`,
  });
}

export function passwordProblemText(t: Messages, problem: PasswordProblem): string {
  switch (problem) {
    case 'too_short':
      return t.password.too_short(PASSWORD_MIN_LENGTH);
    case 'too_long':
      return t.password.too_long(PASSWORD_MAX_LENGTH);
    case 'blank':
    case 'contains_email':
    case 'repeated':
    case 'sequence':
    case 'common':
    case 'mismatch':
      return t.password[problem];
  }
}

/** The new-password pair of fields (invitation, password change). */
export function newPasswordFields(t: Messages): Html {
  return html`<div>
      <label for="password">${t.password.new}</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="new-password"
        required
        minlength="${PASSWORD_MIN_LENGTH}"
        maxlength="${PASSWORD_MAX_LENGTH}"
        aria-describedby="password-help"
      />
      <div class="field-help" id="password-help">${t.password.hint(PASSWORD_MIN_LENGTH)}</div>
    </div>
    <div>
      <label for="confirmation">${t.password.confirm}</label>
      <input
        id="confirmation"
        name="confirmation"
        type="password"
        autocomplete="new-password"
        required
        minlength="${PASSWORD_MIN_LENGTH}"
        maxlength="${PASSWORD_MAX_LENGTH}"
      />
    </div>`;
}

export function invitationPage(
  ctx: ViewContext,
  view: { token: string; csrf: string; email: string; organization: string; problem?: PasswordProblem },
): Html {
  const { t } = ctx;
  return layout(ctx, {
    title: t.invite.title,
    body: html`<div class="auth">
      <div class="card">
        <h1>${t.invite.title}</h1>
        <p class="muted">${t.invite.intro(view.organization)}</p>
        ${view.problem ? alert('error', passwordProblemText(t, view.problem)) : ''}
        <form class="stack" method="post" action="/dashboard/invite/${view.token}">
          <input type="hidden" name="${CSRF_FIELD}" value="${view.csrf}" />
          <div>
            <label for="email">${t.signIn.email}</label>
            <input id="email" type="email" autocomplete="username" value="${view.email}" readonly />
          </div>
          ${newPasswordFields(t)}
          <div><button class="btn" type="submit">${t.invite.submit}</button></div>
        </form>
      </div>
    </div>`,
  });
}

export function invalidInvitationPage(ctx: ViewContext): Html {
  const { t } = ctx;
  return layout(ctx, {
    title: t.invite.invalidTitle,
    body: html`<div class="auth">
      <div class="card">
        <h1>${t.invite.invalidTitle}</h1>
        <p>${t.invite.invalid}</p>
        <p><a class="btn secondary" href="/dashboard/sign-in">${t.signIn.title}</a></p>
      </div>
    </div>`,
  });
}
