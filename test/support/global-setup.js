/**
 * Jest global setup, once before any test file: says which server suites run or are skipped (see
 * announce-backends.js), then builds dist/ when the sources changed since the last build. Tests
 * that run the service or the admin CLI as operators do run the build, and building here, before
 * the workers start, keeps that build out of any test's timeout.
 */
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');
const announceBackends = require('./announce-backends');

module.exports = async function globalSetup() {
  await announceBackends();
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'build-if-needed.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
};
