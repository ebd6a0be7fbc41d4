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
    process.stderr.write('ppfile: the CLI is not built; run `npm install` (or `npm run build:cli`) in the repository first.\n');
    process.exit(2);
  }
  throw e;
}
process.exitCode = cli.run(process.argv.slice(2));
