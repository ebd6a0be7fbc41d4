import type { ApiKeyInfo, FileRecord, MonthUsage, PlanName } from '@ppfile/db';
import { html, type Html } from '../html';
import { usageChart, usageMeter } from '../usage-chart';
import { filesTable } from './files-pages';
import { alert, layout, pageHead, type ViewContext } from './layout';

export interface UsageView {
  welcome: boolean;
  month: string;
  /** Live units counted this month (committed plus reserved), against `limit`. */
  used: number;
  reserved: number;
  limit: number;
  plan: PlanName;
  perMinute: number;
  testRows: number;
  testRowsLimit: number;
  /** 00:00 UTC on the 1st of next month. */
  resetAt: Date;
  history: MonthUsage[];
  recentFiles: FileRecord[];
  keys: ReadonlyMap<string, ApiKeyInfo>;
  activeKeys: number;
  baseUrl: string;
  now: Date;
}

export function usagePage(ctx: ViewContext, v: UsageView): Html {
  const { t, f } = ctx;
  const percent = f.percent(v.limit > 0 ? v.used / v.limit : 1);
  const bars = v.history.map((m, i) => ({
    label:
      i === 0 || m.month.endsWith('-01')
        ? `${f.shortMonth(m.month)} ${m.month.slice(2, 4)}`
        : f.shortMonth(m.month),
    value: m.used,
    valueLabel: f.number(m.used),
    title: `${f.longMonth(m.month)}: ${f.number(m.used)} ${t.usage.units.toLowerCase()}`,
    current: m.month === v.month,
  }));
  const summary = v.history.map((m) => `${f.longMonth(m.month)} ${f.number(m.used)}`).join(', ');
  const getStarted =
    v.activeKeys === 0
      ? html`<div class="card">
          <h2>${t.usage.getStarted}</h2>
          <p>${t.usage.getStartedText}</p>
          <pre class="example">curl -H "Authorization: Bearer pp_test_…" ${v.baseUrl}/v1/spec</pre>
          <a class="btn" href="/dashboard/keys#create">${t.usage.createKey}</a>
        </div>`
      : '';
  return layout(ctx, {
    title: t.usage.title,
    active: 'usage',
    body: html`${pageHead(t.usage.title)} ${v.welcome ? alert('ok', t.usage.welcome) : ''}
      <div class="card" id="this-month">
        <div class="card-head">
          <h2>${t.usage.thisMonth} · ${f.longMonth(v.month)}</h2>
          <span class="muted small">${t.usage.resets(f.utcDate(v.resetAt))}</span>
        </div>
        <div class="stat-value" data-usage-used="${v.used}">
          ${t.usage.unitsOf(f.number(v.used), f.number(v.limit))}
        </div>
        ${usageMeter(v.used, v.limit, t.usage.percentUsed(percent))}
        <div class="meter-legend">
          <span
            >${t.usage.percentUsed(percent)}${v.reserved > 0 ? html` · ${t.usage.reserved(f.number(v.reserved))}` : ''}</span
          >
          <span>${t.usage.unitHelp}</span>
        </div>
      </div>
      <div class="grid grid-3">
        <div class="card">
          <div class="stat-label">${t.usage.plan}</div>
          <div class="stat-value">${t.plans[v.plan]}</div>
          <p class="stat-help">${t.usage.planQuota(f.number(v.limit))}</p>
        </div>
        <div class="card">
          <div class="stat-label">${t.usage.perMinute}</div>
          <div class="stat-value">${f.number(v.perMinute)}</div>
          <p class="stat-help">${t.usage.perMinuteHelp}</p>
        </div>
        <div class="card">
          <div class="stat-label">${t.usage.testRows}</div>
          <div class="stat-value" data-test-rows="${v.testRows}">${f.number(v.testRows)}</div>
          <p class="stat-help">${t.usage.testRowsHelp(f.number(v.testRowsLimit))}</p>
        </div>
      </div>
      ${getStarted}
      <div class="card">
        <h2>${t.usage.history}</h2>
        <div class="chart-wide">
          ${usageChart(bars, { value: v.limit, label: t.usage.quotaLine(f.number(v.limit)), aboveLabel: t.usage.quotaAbove(f.number(v.limit)) }, t.usage.historyAria(summary))}
        </div>
        ${monthList(ctx, v)}
        <details>
          <summary>${t.usage.showTable}</summary>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>${t.usage.month}</th>
                  <th class="num">${t.usage.units}</th>
                  <th class="num">${t.usage.testRowsColumn}</th>
                </tr>
              </thead>
              <tbody>
                ${[...v.history].reverse().map(
                  (m) =>
                    html`<tr>
                      <td>${f.longMonth(m.month)}</td>
                      <td class="num">${f.number(m.used)}</td>
                      <td class="num">${f.number(m.testRows)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
        </details>
      </div>
      <div class="card">
        <div class="card-head">
          <h2>${t.usage.recentFiles}</h2>
          <a href="/dashboard/files">${t.usage.allFiles}</a>
        </div>
        ${v.recentFiles.length ? filesTable(ctx, v.recentFiles, v.keys, v.now) : html`<p class="empty">${t.usage.noFiles}</p>`}
      </div>`,
  });
}

/**
 * The 12 months on a phone, where the chart's labels would be a few pixels high: one line a month,
 * newest first, with a bar (a <progress>: the CSP allows no inline style to size a bar) against the
 * largest of the year and the quota.
 */
function monthList(ctx: ViewContext, v: UsageView): Html {
  const { t, f } = ctx;
  const max = Math.max(1, v.limit, ...v.history.map((m) => m.used));
  return html`<ol class="month-list" aria-label="${t.usage.history}">
    ${[...v.history].reverse().map(
      (m) =>
        html`<li${m.month === v.month ? html` class="current"` : ''}>
          <span>${f.longMonth(m.month)}</span>
          <progress max="${max}" value="${m.used}"></progress>
          <b>${f.number(m.used)}</b>
        </li>`,
    )}
  </ol>`;
}
