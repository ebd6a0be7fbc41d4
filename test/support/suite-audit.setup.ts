import { contractProblems, suiteExchanges } from './contract';
import { auditLogLines, suiteLogs } from './logs';

/**
 * After every e2e test file, two audits of what its processes did:
 * - the contract: every answer of its in-process gateways matches openapi.json (support/contract.ts);
 * - the logs: each line its gateways and workers wrote (in process or spawned) is one JSON object and
 *   carries no NIR, birth name or API key of the fixtures (API.md §13; personal data never in logs).
 */
afterAll(() => {
  const failures: string[] = [];
  const contract = contractProblems(suiteExchanges);
  if (contract.length)
    failures.push(
      `${contract.length} answer(s) break the OpenAPI contract:\n${contract.slice(0, 20).join('\n')}`,
    );
  const logs = auditLogLines(suiteLogs.lines);
  if (logs.length)
    failures.push(`${logs.length} log line(s) break the logging rules:\n${logs.slice(0, 20).join('\n')}`);
  if (failures.length) throw new Error(failures.join('\n\n'));
});
