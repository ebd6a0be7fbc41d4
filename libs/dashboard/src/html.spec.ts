import { escapeHtml, html, Html, trustedHtml, type Renderable } from './html';

describe('html tagged template', () => {
  it('escapes every interpolated string: text, attribute breakouts, script', () => {
    const name = `"><script>alert('x')</script>&amp;\``;
    const out = html`<p title="${name}">${name}</p>`.toString();
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;&#96;">' +
        '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;&#96;</p>',
    );
    expect(out).not.toContain('<script>');
  });

  it('keeps markup built by another template, once (no double escaping)', () => {
    const inner = html`<b>${'a < b'}</b>`;
    expect(html`<p>${inner}</p>`.toString()).toBe('<p><b>a &lt; b</b></p>');
  });

  it('joins arrays, escaping each item; nested arrays too', () => {
    const items = ['<x>', html`<i>y</i>`, ['&', 2]];
    expect(html`[${items}]`.toString()).toBe('[&lt;x&gt;<i>y</i>&amp;2]');
    expect(html`${['a', 'b'].map((x) => html`<li>${x}</li>`)}`.toString()).toBe('<li>a</li><li>b</li>');
  });

  it('prints numbers, and nothing for null, undefined and false (conditional parts)', () => {
    const flag = false as boolean;
    expect(html`${0}|${1.5}|${null}|${undefined}|${flag && html`<b>no</b>`}`.toString()).toBe('0|1.5|||');
  });

  it('refuses objects, true and functions rather than print [object Object]', () => {
    expect(() => html`${{ a: 1 } as unknown as Renderable}`).toThrow(TypeError);
    expect(() => html`${true as unknown as Renderable}`).toThrow(TypeError);
    expect(() => html`${(() => 'x') as unknown as Renderable}`).toThrow(TypeError);
  });

  it('a string that looks like markup is still text; only Html instances pass as markup', () => {
    const sneaky = { toString: () => '<b>x</b>' };
    expect(() => html`${sneaky as unknown as Renderable}`).toThrow(TypeError);
    expect(trustedHtml('<!doctype html>')).toBeInstanceOf(Html);
    expect(html`${trustedHtml('<hr>')}`.toString()).toBe('<hr>');
  });

  it('escapeHtml covers the five HTML specials and the backtick', () => {
    expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
    expect(escapeHtml('Éléonore — ok')).toBe('Éléonore — ok');
  });
});
