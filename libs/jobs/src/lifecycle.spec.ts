import { FileLifecycle } from './lifecycle';

describe('FileLifecycle.outlivedLease: when a processing file has outlived its lease', () => {
  const progressAt = new Date('2026-11-27T10:00:00.000Z');
  const at = (ms: number) => new Date(progressAt.getTime() + ms);

  it('is within its lease until the lease’s last millisecond, outlived from the lease’s end on', () => {
    expect(FileLifecycle.outlivedLease({ progressAt }, at(0), 600)).toBe(false);
    expect(FileLifecycle.outlivedLease({ progressAt }, at(600_000 - 1), 600)).toBe(false);
    expect(FileLifecycle.outlivedLease({ progressAt }, at(600_000), 600)).toBe(true);
    expect(FileLifecycle.outlivedLease({ progressAt }, at(3_600_000), 600)).toBe(true);
  });

  it('counts from the last progress, whatever the lease', () => {
    expect(FileLifecycle.outlivedLease({ progressAt }, at(1_000), 1)).toBe(true);
    expect(FileLifecycle.outlivedLease({ progressAt }, at(999), 1)).toBe(false);
    expect(FileLifecycle.outlivedLease({ progressAt: at(5_000) }, at(6_000), 2)).toBe(false);
  });

  it('treats a progress in the future (clocks apart) as within the lease', () => {
    expect(FileLifecycle.outlivedLease({ progressAt: at(60_000) }, progressAt, 600)).toBe(false);
  });
});
