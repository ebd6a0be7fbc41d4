/**
 * jest's order of the test files: the longest first, so that no long file starts last and runs alone
 * at the end while the other workers wait (on two cores, with four workers). jest knows the
 * durations of its last run from its cache; a fresh clone (CI) has none, and jest's fallback, the
 * file size, starts the docs suites (small files, minutes of work) last. So a file jest has no
 * duration for takes the one below: seconds measured on a 2-core machine under load (4 workers,
 * November 2026) — only their order matters. Failed files still come first, as jest does.
 */
const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const SECONDS = {
  'libs/rules/test/property.spec.ts': 444,
  'test/chaos.e2e-spec.ts': 314,
  'test/dashboard-security.e2e-spec.ts': 302,
  'test/docs/sequence.e2e-spec.ts': 269,
  'test/docs/docs.e2e-spec.ts': 236,
  'test/cli.e2e-spec.ts': 214,
  'test/dashboard.e2e-spec.ts': 202,
  'libs/sheets/src/importer.spec.ts': 176,
  'test/swagger-ui.e2e-spec.ts': 151,
  'test/observability.e2e-spec.ts': 105,
  'test/db.e2e-spec.ts': 90,
  'libs/sheets/src/bounds.spec.ts': 79,
  'libs/sheets/src/hostile.spec.ts': 79,
  'test/gateway.e2e-spec.ts': 72,
  'test/deploy.e2e-spec.ts': 64,
  'test/worker.e2e-spec.ts': 59,
  'test/security.e2e-spec.ts': 54,
  'test/security/http-body.e2e-spec.ts': 52,
  'test/security/http-fuzz.e2e-spec.ts': 52,
  'test/openapi.e2e-spec.ts': 52,
  'test/start.e2e-spec.ts': 49,
  'test/scale.e2e-spec.ts': 40,
  'libs/refdata/src/import.spec.ts': 33,
  'test/worker-uploads.e2e-spec.ts': 33,
  'libs/rules/src/csv-validator.spec.ts': 31,
  'libs/rules/src/forbidden-characters.spec.ts': 30,
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached / 1000;
      const known = SECONDS[path.relative(ROOT, test.path).split(path.sep).join('/')];
      // An unlisted file: under 30 s; a larger one first.
      return known ?? test.context.hasteFS.getSize(test.path) / 10_000;
    };
    const order = new Map(tests.map((test) => [test, [this.hasFailed(test), seconds(test)]]));
    return [...tests].sort((a, b) => {
      const [failedA, secondsA] = order.get(a);
      const [failedB, secondsB] = order.get(b);
      if (failedA !== failedB) return failedA ? -1 : 1;
      return secondsB - secondsA;
    });
  }
}

module.exports = LongestFirst;
