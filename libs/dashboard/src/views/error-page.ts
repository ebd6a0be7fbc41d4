import { html, type Html } from '../html';
import { layout, pageHead, type ViewContext } from './layout';

/** A page that says what went wrong, in the page's language, with a way back. */
export function errorPage(ctx: ViewContext, title: string, message: string | Html): Html {
  return layout(ctx, {
    title,
    body: html`${pageHead(title)}
      <div class="card">
        <p>${message}</p>
        <p><a class="btn secondary" href="/dashboard">${ctx.t.errors.home}</a></p>
      </div>`,
  });
}
