import { html, trustedHtml, type Html } from '../html';
import { alert, layout, pageHead, type ViewContext } from './layout';

export interface TryForm {
  type: string;
  declarant: string;
  strict: boolean;
}

/** What try.js reads from `#try-app[data-config]` (libs/dashboard/web/src/try). */
export interface TryPageConfig {
  lang: 'en' | 'fr';
  /** YYYY-MM-DD: the server's Paris day, the day the API checks dates against. */
  today: string;
  workerUrl: string;
  listsUrl: string;
}

export interface TryView {
  form: TryForm;
  /** The page's script and its configuration; absent when the front end is not built. */
  app?: { script: string; config: TryPageConfig };
  /** `npm run build:web` was not run: the page says so (503). */
  missingBundle?: boolean;
}

const UPLOAD_ICON = trustedHtml(
  '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M12 16V4"/><path d="M7 9l5-5 5 5"/><path d="M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3"/></svg>',
);

const LOCK_ICON = trustedHtml(
  '<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><rect x="5" y="11" width="14" height="9" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/></svg>',
);

export { reportName } from '../error-report';

/**
 * The shell of Try it: the form as plain HTML elements, and `#try-app` where try.js shows the
 * progress and the result. The form has no action and its file input no name: without the script
 * (which checks in the browser) submitting it sends nothing of the file.
 */
export function tryPage(ctx: ViewContext, view: TryView): Html {
  const { t } = ctx;
  const { form } = view;
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}" ${value === current ? html` selected` : ''}>${label}</option>`;
  return layout(ctx, {
    title: t.tryIt.title,
    active: 'try',
    ...(view.app ? { web: { script: view.app.script } } : {}),
    body: html`${pageHead(t.tryIt.title, t.tryIt.intro)}
      <p class="privacy" id="privacy">${LOCK_ICON}<span>${t.tryIt.privacy}</span></p>
      <noscript>${alert('warn', t.tryIt.noscript)}</noscript>
      ${view.missingBundle ? alert('error', t.errors.bundleMissing) : ''}
      <div id="try-app" ${view.app ? html`data-config="${JSON.stringify(view.app.config)}"` : ''}></div>
      <div class="card">
        <form class="try-form" id="try-form">
          <div class="dropzone" data-chosen="${t.tryIt.chosen}">
            ${UPLOAD_ICON}
            <div class="big">${t.tryIt.drop}</div>
            <div class="muted">
              ${t.tryIt.or} <label for="file" class="linklike-label">${t.tryIt.choose}</label>
            </div>
            <input id="file" class="visually-hidden" type="file" accept=".csv,.txt,text/csv" required />
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
              id="strict"
              name="strict_references"
              value="true"
              ${form.strict ? html` checked` : ''}
            />
            ${t.tryIt.strict}</label
          >
          <div>
            <button class="btn" type="submit" ${view.app ? '' : html` disabled`}>${t.tryIt.submit}</button>
          </div>
        </form>
      </div>`,
  });
}
