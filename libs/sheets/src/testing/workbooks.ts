/**
 * Test helpers: workbooks of the import's tests, built with the library's own writer (xlsx-writer.ts)
 * or by patching the bytes of a zip, and the environment they are imported in. Never used by
 * production code.
 */
import type { Lang } from '@ppfile/rules';
import { testReferences } from '@ppfile/rules/testing/fixtures';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { importSheet, type ImportRequest, type ImportResult } from '../importer';
import { writeWorkbook, type CellInput, type WorkbookInput } from '../xlsx-writer';

export const TODAY = 20261122;
export const ENV = { refs: testReferences(), today: TODAY };

/** One sheet named `Declarations` holding `rows` from row 1. */
export function sheet(
  rows: CellInput[][],
  opts: Omit<WorkbookInput, 'sheets'> = {},
  name = 'Declarations',
): Buffer {
  return writeWorkbook({ ...opts, sheets: [{ name, rows }] });
}

export function importOf(
  bytes: Uint8Array,
  req: Partial<ImportRequest> = {},
  env: Partial<typeof ENV> & { maxRows?: number; lang?: Lang } = {},
): ImportResult {
  return importSheet(
    bytes,
    { type: 'adf', declarant: 'employer', filename: 'stagiaires.xlsx', ...req },
    { ...ENV, ...env },
  );
}

/** A zip of the given parts (text or bytes), stored as fflate writes them. */
export function zipOf(parts: Record<string, string | Uint8Array>): Buffer {
  const files: Zippable = {};
  for (const [name, content] of Object.entries(parts)) {
    files[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** The parts of a minimal workbook of one sheet whose XML is `sheetData`, for hostile variants. */
export function minimalParts(
  sheetData: string,
  extra: Record<string, string | Uint8Array> = {},
): Record<string, string | Uint8Array> {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return {
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Declarations" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0"?><worksheet xmlns="${main}"><sheetData>${sheetData}</sheetData></worksheet>`,
    ...extra,
  };
}
