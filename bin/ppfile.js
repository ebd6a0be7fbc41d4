#!/usr/bin/env node
'use strict';
// Entry point of `npx ppfile`: the CLI compiled by `npm install` (prepare → build:cli).
const path = require('node:path');
const main = path.join(__dirname, '..', 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
let cli;
try {
  cli = require(main);
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(main)) {
    process.stderr.write(
      'ppfile: the CLI is not built; run `npm install` (or `npm run build:cli`) in the repository first.\n',
    );
    process.exit(2);
  }
  throw e;
}
const status = cli.run(process.argv.slice(2));
// The admin commands answer a promise (they talk to the database); the others a number.
if (typeof status === 'number') process.exitCode = status;
else {
  status.then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(
        `ppfile: ${e && e.message ? String(e.message).split('\n').filter(Boolean).pop() : e}\n`,
      );
      process.exitCode = 2;
    },
  );
}
