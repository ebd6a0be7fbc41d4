/**
 * The dashboard's templates: a tagged template, `html`, that escapes every interpolated value by
 * default. Why not a template engine (Handlebars, EJS, Nunjucks…): the pages are a handful, all
 * written in TypeScript beside their controllers, so a tagged template keeps them type-checked
 * (a misspelt field fails `tsc`), adds no dependency and no second syntax to learn, and makes the
 * safe way the only easy way — a string can reach the page only escaped; markup only as an `Html`
 * value that another `html` template built.
 *
 * Rules: attribute values are always written in double quotes in the templates (`href="${url}"`),
 * which is what makes escaping `"` enough inside attributes; URLs interpolated into `href` or
 * `action` are built by the dashboard from validated ids, never taken from input as they are.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text made safe for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Markup: the result of an `html` template (or of `trustedHtml` on a constant). */
export class Html {
  constructor(private readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/**
 * What a template may interpolate: markup (kept), text and numbers (escaped), arrays of these
 * (joined), and `null` / `undefined` / `false` (nothing, for `${cond && html`…`}`). Anything else —
 * an object, `true`, a function — is a mistake in a template and throws rather than print
 * "[object Object]".
 */
export type Renderable = Html | string | number | false | null | undefined | readonly Renderable[];

export function html(strings: TemplateStringsArray, ...values: Renderable[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.toString();
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  throw new TypeError(`html: cannot interpolate a value of type ${typeof value}`);
}

/**
 * Markup written by the dashboard itself, as a constant (the `<!doctype>` line, a fixed icon): never
 * call this on anything that holds input.
 */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
