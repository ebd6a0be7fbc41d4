import type { RootLogger } from './logger';

export type DependencyName = 'postgres' | 'redis' | 's3';

/**
 * Dependency errors are logged once per change of state — one line when a dependency stops
 * answering, one when it is back — not once per reconnection attempt or per failed request.
 */
export class DependencyLog {
  private readonly down = new Map<DependencyName, number>();

  constructor(private readonly logger: RootLogger) {}

  failed(dependency: DependencyName, error: unknown, via?: string): void {
    if (this.down.has(dependency)) return;
    this.down.set(dependency, Date.now());
    const e = error as { name?: string; code?: unknown };
    this.logger.warn(
      {
        dependency,
        via,
        error:
          typeof e?.code === 'string' || typeof e?.code === 'number'
            ? String(e.code)
            : (e?.name ?? typeof error),
      },
      `${dependency} unreachable; retrying`,
    );
  }

  answered(dependency: DependencyName): void {
    const since = this.down.get(dependency);
    if (since === undefined) return;
    this.down.delete(dependency);
    this.logger.info({ dependency, down_ms: Date.now() - since }, `${dependency} reachable again`);
  }

  isDown(dependency: DependencyName): boolean {
    return this.down.has(dependency);
  }
}
