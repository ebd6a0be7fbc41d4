#!/usr/bin/env node
// Prints a request body like adf-training-organization.json with N holders (default 3000), each with
// its own fictitious NIR: enough rows to go through a worker (more than
// GENERATE_QUEUE_THRESHOLD_ROWS, 2,000). Usage: node docs/examples/many-holders.js [N] > large.json
'use strict';
const path = require('node:path');

const n = Number(process.argv[2] ?? 3000);
if (!Number.isInteger(n) || n < 1 || n > 50000) {
  process.stderr.write('usage: node docs/examples/many-holders.js [N]   (N from 1 to 50000)\n');
  process.exit(2);
}
const body = require(path.join(__dirname, 'adf-training-organization.json'));
const [template] = body.declarations[0].holders;
const holders = [];
for (let i = 0; i < n; i++) {
  // A fictitious NIR without its key: sex 1, born in May 1985, département 75, then a commune and an
  // order number that differ for every holder.
  const nir =
    '18505' +
    '75' +
    String(101 + (Math.floor(i / 999) % 899)).padStart(3, '0') +
    String(1 + (i % 999)).padStart(3, '0');
  holders.push({ ...template, unique_id: `SST-2026-09-E${i + 1}`, nir, birth_name: 'MARTIN' });
}
body.declarations[0].holders = holders;
// At most 500 holders a declaration at the portal: ppfile splits it into several (same data, new IDs).
body.options.split_large_declarations = true;
process.stdout.write(`${JSON.stringify(body)}\n`);
