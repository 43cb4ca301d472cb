/**
 * A process that runs admin CLI commands its parent sends over IPC, one at a time, with the built
 * CLI (`dist/`): `runCli` of apps/admin/src/main.ts on the argv and environment sent, under the
 * umask the CLI sets as a program. What the command writes to stdout and stderr is collected and
 * sent back with its exit code. Loading the CLI once saves the second or so each run of it as a
 * program spends before the command starts (see test/support/admin-worker.ts).
 */
const { join } = require('node:path');

const dist = join(__dirname, '..', '..', 'dist');
let cli;
let busyWaitMs;

/** Bytes written to a stream while a command runs, collected instead. */
function collector(chunks) {
  return (chunk, encoding, callback) => {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? encoding : 'utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  };
}

/** Runs one command; answers `{ code, stdout, stderr }`. */
async function run({ argv, env }) {
  const out = [];
  const err = [];
  const writes = [process.stdout.write, process.stderr.write];
  const processEnv = process.env;
  process.stdout.write = collector(out);
  process.stderr.write = collector(err);
  process.env = env;
  let code;
  try {
    code = await cli.runCli(argv, env);
  } catch (error) {
    process.stderr.write(`${cli.failureLine(error, env, busyWaitMs)}\n`);
    code = 1;
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
    process.env = processEnv;
  }
  process.send({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
}

let queue = Promise.resolve();
process.on('message', (message) => {
  queue = queue.then(() => run(message));
});
require(join(dist, 'libs', 'runtime', 'process', 'index.js')).keepNewFilesPrivate();
cli = require(join(dist, 'apps', 'admin', 'src', 'main.js'));
busyWaitMs = require(join(dist, 'apps', 'admin', 'src', 'busy-stores.js')).ADMIN_BUSY_WAIT_MS;
process.send({ ready: true });
