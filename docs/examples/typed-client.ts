import { readFileSync, writeFileSync } from 'node:fs';
import { createPpfileClient, type Schemas } from '@ppfile/client';

/** Checks a body, generates its file with an Idempotency-Key, downloads it under its name. */
async function main(): Promise<void> {
  const [bodyFile] = process.argv.slice(2);
  const apiKey = process.env.PPFILE_KEY;
  if (!bodyFile || !apiKey)
    throw new Error('usage: PPFILE_URL=… PPFILE_KEY=pp_… node typed-client.js BODY.json');
  const ppfile = createPpfileClient({ baseUrl: process.env.PPFILE_URL ?? 'http://localhost:3000', apiKey });
  const body = JSON.parse(readFileSync(bodyFile, 'utf8')) as Schemas['DeclarationBody'];

  const checked = await ppfile.POST('/v1/declarations/validate', { body });
  if (!checked.data?.valid)
    throw new Error(`invalid: ${JSON.stringify(checked.data?.errors ?? checked.error)}`);

  const generated = await ppfile.POST('/v1/files/generate', {
    body,
    params: { header: { 'Idempotency-Key': 'SST-2026-10-LYON' } },
  });
  const file = generated.data;
  if (!file || !('success' in file)) throw new Error(`generate answered ${generated.response.status}`);

  const csv = await ppfile.GET('/v1/files/{id}/download', {
    params: { path: { id: file.file_id } },
    parseAs: 'text',
  });
  if (typeof csv.data !== 'string') throw new Error(`download answered ${csv.response.status}`);
  writeFileSync(file.filename, csv.data);
  console.log(`${file.filename}: ${file.rows} row(s), sha256 ${file.sha256}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
