import { auditLogLines, suiteLogs } from './logs';

/**
 * After every e2e test file: each log line its gateways and workers wrote (in process or spawned)
 * is one JSON object and carries no NIR, birth name or API key of the fixtures (API.md §13,
 * STANDARDS: personal data never in logs).
 */
afterAll(() => {
  const problems = auditLogLines(suiteLogs.lines);
  if (problems.length) {
    throw new Error(`${problems.length} log line(s) break the logging rules:\n${problems.slice(0, 20).join('\n')}`);
  }
});
