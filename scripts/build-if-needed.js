#!/usr/bin/env node
/**
 * Builds dist/ when a source file is newer than the last build (used by `npm start` and
 * `npm run admin`), so a fresh clone works with no separate build step. Build output goes to
 * stderr, keeping stdout for the command's own answer. Where there are no sources to build (the
 * container image holds dist/ alone, in a directory its user cannot write), it does nothing.
 */
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');

if (!['apps', 'libs', 'tsconfig.build.json'].every((f) => fs.existsSync(path.join(root, f)))) process.exit(0);

/**
 * The latest change (mtime, ms) of a file the build compiles under `dir`: its .ts and .json files,
 * without the specs and the `testing/` folders, which tsconfig.build.json leaves out (a change to
 * a test helper needs no build).
 */
function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) latest = entry.name === 'testing' ? latest : Math.max(latest, newest(p));
    else if (/\.(ts|json)$/.test(entry.name) && !entry.name.endsWith('.spec.ts')) latest = Math.max(latest, fs.statSync(p).mtimeMs);
  }
  return latest;
}

function sourcesNewerThanBuild() {
  const sources = Math.max(
    newest(path.join(root, 'apps')),
    newest(path.join(root, 'libs')),
    ...['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  return sources > built;
}

/**
 * One build at a time: several processes may ask at once (test workers starting the built API),
 * and one must not run a dist/ another is half-way through writing. The lock is a directory
 * (its creation is atomic); a lock older than 10 minutes is taken to be left by a killed build.
 */
const lock = path.join(root, '.build-lock');
function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
for (;;) {
  try {
    fs.mkdirSync(lock);
    break;
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
    } catch {
      // The lock went away meanwhile: try again.
    }
    sleepMs(200);
  }
}
try {
  if (sourcesNewerThanBuild()) {
    process.stderr.write('Building (sources changed since the last build)...\n');
    execSync('npm run --silent build', { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
    fs.mkdirSync(path.dirname(stamp), { recursive: true });
    fs.writeFileSync(stamp, new Date().toISOString());
  }
} finally {
  fs.rmSync(lock, { recursive: true, force: true });
}
