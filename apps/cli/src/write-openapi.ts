/**
 * `npm run openapi`: writes openapi.json at the repository root from libs/contract's builder — the
 * document the gateway serves at /docs-json, with the default server URL. The npm script then
 * generates libs/client's types from it; test/openapi.e2e-spec.ts fails when either is stale.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildOpenApiDocument } from '@ppfile/contract';

const ROOT = path.resolve(__dirname, '../../../../..');
export function openApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (require.main === module) {
  const out = path.join(ROOT, process.argv[2] ?? 'openapi.json');
  writeFileSync(out, openApiJson());
  process.stdout.write(`wrote ${path.relative(ROOT, out)}\n`);
}
