import { SPEC_2026_02 } from './v2026-02';
import type { SpecVersion } from './types';

export * from './types';
export { DELIVERY_MODES, JDR_TYPES, OBTENTION_MODES, TRAINER_QUALIFICATIONS, YES_NO } from './v2026-02';

/** Adding a format version is adding a table here (SERVICE.md §9). */
const SPECS: ReadonlyMap<string, SpecVersion> = new Map([[SPEC_2026_02.version, SPEC_2026_02]]);

export const CURRENT_SPEC_VERSION = '2026-02';
export const SPEC_VERSIONS: readonly string[] = [...SPECS.keys()];

export function findSpec(version: string): SpecVersion | undefined {
  return SPECS.get(version);
}

/**
 * The limits of the current format version (SERVICE.md §8): rows a request (live, test), bytes a
 * body, retention, holders a declaration, errors listed. The one source of these numbers.
 */
export const CURRENT_LIMITS: SpecVersion['limits'] = findSpec(CURRENT_SPEC_VERSION)!.limits;
