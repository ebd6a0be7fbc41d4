import { chartScale, usageChart, usageMeter } from './usage-chart';

const bar = (value: number, current = false) => ({
  label: 'Nov',
  value,
  valueLabel: String(value),
  title: `Nov: ${value}`,
  current,
});

describe('usage graphics (inline SVG)', () => {
  it('the meter fills in proportion, amber from 80 %, red when full, nothing when empty', () => {
    expect(usageMeter(0, 100, 'x').toString()).not.toContain('meter-fill');
    expect(usageMeter(42, 100, 'x').toString()).toMatch(/class="meter-fill" x="0" y="0" width="42%"/);
    expect(usageMeter(85, 100, 'x').toString()).toContain('class="meter-fill high"');
    expect(usageMeter(150, 100, 'x').toString()).toMatch(/class="meter-fill full" x="0" y="0" width="100%"/);
    // A single unit of a large quota is still visible.
    expect(usageMeter(1, 50_000, 'x').toString()).toContain('width="0.8%"');
  });

  it('the chart scales to the quota when months come near it, else to the largest month', () => {
    expect(chartScale([0, 0], 100)).toEqual({ max: 100, quotaShown: true });
    expect(chartScale([30, 80], 100)).toEqual({ max: 100, quotaShown: true });
    expect(chartScale([30, 150], 100)).toEqual({ max: 150, quotaShown: true });
    expect(chartScale([7], 2000)).toEqual({ max: 8.75, quotaShown: false });
  });

  it('draws one bar per month with a value and a tooltip, the current month marked, no inline style', () => {
    const svg = usageChart(
      [bar(0), bar(50), bar(100, true)],
      { value: 100, label: 'Quota: 100', aboveLabel: 'above' },
      'Units per month',
    ).toString();
    expect(svg.match(/<rect class="bar/g)).toHaveLength(2);
    expect(svg.match(/class="bar current"/g)).toHaveLength(1);
    expect(svg).toContain('<title>Nov: 50</title>');
    expect(svg).toContain('class="quota"');
    expect(svg).toContain('role="img" aria-label="Units per month"');
    expect(svg).not.toMatch(/style=|<style/);
    const above = usageChart(
      [bar(7, true)],
      { value: 2000, label: 'Quota: 2,000', aboveLabel: 'Quota: 2,000 (above)' },
      'x',
    ).toString();
    expect(above).not.toContain('class="quota"');
    expect(above).toContain('↑ Quota: 2,000 (above)');
  });

  it('escapes the labels it is given', () => {
    const svg = usageChart(
      [{ ...bar(1), title: '<script>' }],
      { value: 10, label: '<b>', aboveLabel: '' },
      '"x"',
    ).toString();
    expect(svg).not.toMatch(/<script>|<b>/);
    expect(svg).toContain('aria-label="&quot;x&quot;"');
  });
});
