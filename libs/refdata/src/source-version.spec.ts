import { versionFromFileName } from './source-version';

describe('versionFromFileName', () => {
  const mtime = new Date('2024-03-05T10:00:00Z');

  it.each([
    ['/x/unix_referentiel_competence_v460_utf8.csv', 'v460'],
    ['formacodes-v14.csv', 'v14'],
    ['formacode_v13.csv', 'v13'],
    ['export_fiches_CSV_Standard_2025_01_31.csv', '2025-01-31'],
    ['rs_certifinfo_2025-01-01.csv', '2025-01-01'],
    ['opendata-certifinfo-01012025.csv', '2025-01-01'],
    ['nsf_codes_fins_observes.csv', '2024-03-05'],
  ])('%s → %s', (file, version) => {
    expect(versionFromFileName(file, mtime)).toBe(version);
  });
});
