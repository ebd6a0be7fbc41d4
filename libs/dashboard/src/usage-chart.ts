import { html, type Html } from './html';

/**
 * The usage graphics as inline SVG: no chart library, no script, nothing loaded, and no inline
 * style (the CSP allows none) — sizes are SVG attributes, colours classes of the stylesheet.
 */

/** This month's units against the quota: a bar, filled in proportion, amber past 80 %, red when full. */
export function usageMeter(used: number, limit: number, label: string): Html {
  const ratio = limit > 0 ? Math.min(1, used / limit) : 1;
  const width = used > 0 ? Math.max(ratio * 100, 0.8) : 0;
  const level = ratio >= 1 ? ' full' : ratio >= 0.8 ? ' high' : '';
  return html`<svg class="meter" height="14" role="img" aria-label="${label}">
    <rect class="meter-track" x="0" y="0" width="100%" height="14" rx="7"></rect>
    ${width > 0 ? html`<rect class="meter-fill${level}" x="0" y="0" width="${round(width)}%" height="14" rx="7"></rect>` : ''}
  </svg>`;
}

export interface ChartBar {
  /** Below the bar ("Nov"). */
  label: string;
  value: number;
  /** Above the bar ("1,234"); nothing for 0. */
  valueLabel: string;
  /** The tooltip ("November 2026: 1,234 units"). */
  title: string;
  current: boolean;
}

const WIDTH = 720;
const HEIGHT = 230;
const LEFT = 16;
const RIGHT = 16;
const TOP = 26;
const BOTTOM = 34;

/**
 * The top of the scale: the quota when the months come near it (the bars then read against the
 * plan), else the largest month with some headroom — 7 units drawn against 2,000 would be a line
 * no one can see. Null `quotaShown` means the quota is above the scale.
 */
export function chartScale(values: readonly number[], quota: number): { max: number; quotaShown: boolean } {
  const largest = Math.max(0, ...values);
  if (largest === 0 || largest * 4 >= quota) return { max: Math.max(quota, largest, 1), quotaShown: true };
  return { max: largest * 1.25, quotaShown: false };
}

/**
 * Monthly bars with the quota as a dashed line when it is on the scale (else its label says it is
 * above), each bar with its value and a tooltip.
 */
export function usageChart(
  bars: readonly ChartBar[],
  quota: { value: number; label: string; aboveLabel: string },
  ariaLabel: string,
): Html {
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const { max, quotaShown } = chartScale(
    bars.map((b) => b.value),
    quota.value,
  );
  const slot = plotW / Math.max(1, bars.length);
  const barW = Math.min(40, slot * 0.62);
  const y = (v: number) => TOP + plotH - (v / max) * plotH;
  const baseline = TOP + plotH;
  const quotaY = y(quota.value);
  const shapes = bars.map((b, i) => {
    const cx = LEFT + slot * i + slot / 2;
    const h = b.value > 0 ? Math.max(2, baseline - y(b.value)) : 0;
    return html`<g>
      <title>${b.title}</title>
      ${h > 0 ? html`<rect class="bar${b.current ? ' current' : ''}" x="${round(cx - barW / 2)}" y="${round(baseline - h)}" width="${round(barW)}" height="${round(h)}" rx="3"></rect>` : ''}
      ${b.value > 0 ? html`<text class="value" x="${round(cx)}" y="${round(baseline - h - 5)}" text-anchor="middle">${b.valueLabel}</text>` : ''}
      <text class="axis" x="${round(cx)}" y="${baseline + 18}" text-anchor="middle">${b.label}</text>
    </g>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${ariaLabel}">
    <line class="gridline" x1="${LEFT}" y1="${baseline}" x2="${WIDTH - RIGHT}" y2="${baseline}"></line>
    ${
      quotaShown
        ? html`<line
              class="quota"
              x1="${LEFT}"
              y1="${round(quotaY)}"
              x2="${WIDTH - RIGHT}"
              y2="${round(quotaY)}"
            ></line>
            <text class="quota-label" x="${LEFT}" y="${round(quotaY - 6)}" text-anchor="start"
              >${quota.label}</text
            >`
        : html`<text class="quota-label" x="${LEFT}" y="12" text-anchor="start">↑ ${quota.aboveLabel}</text>`
    }
    ${shapes}
  </svg>`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
