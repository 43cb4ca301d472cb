/**
 * Runbooks that run (docs/runbooks/README.md): the `sh` blocks of a Markdown file read with
 * markdown-it, each command run exactly as written, in order, by one bash session on a fresh
 * working directory, and each documented outcome checked.
 *
 * What a block holds: commands (a line, lines joined by a trailing `\`, or a line with a here-document
 * and the document's lines), each followed by the
 * lines of `# ` comment that say its outcome: a line of its output, `…` standing for any text
 * (spaces run together), or `exit <n>` for its exit code (0 unless said). A command may use
 * `<name>` placeholders, filled from earlier output (a `capture` below). HTML comments around a
 * block, invisible when the page is read, tell the runner what a reader is told in words:
 *
 * - `<!-- runbook: skip <reason> -->` before a block: not run (the reason says why: Docker, a server).
 * - `<!-- runbook: background <name> until /<regex>/ -->` before a block: it runs on its own, as in
 *   a terminal of its own, until its output matches; `<name_pid>` is the process id of the program
 *   it started (the last of its chain: npm's node child); its output so far is what a capture after
 *   it reads. Every background process ends with the runbook.
 * - `<!-- runbook: capture <name> /<regex>/ -->` after a block: `<name>` is the regex's first group
 *   in that block's output, for the commands after it.
 *
 * With `packageScripts` ({@link RunOptions}), `npm start` and `npm run [--silent] <script> [-- args]`
 * run the package's scripts as npm runs them (the `pre` script, then the script with the arguments
 * appended, through `sh -c`, `node_modules/.bin` on the PATH, npm's two-line banner unless
 * `--silent`, the first failing exit code), without starting npm itself: about half a second of
 * CPU a command. Any other `npm` command runs npm.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';

/** One command of a block: its text as written, what its output must show, and its exit code. */
export interface RunbookCommand {
  text: string;
  expected: string[];
  exit: number;
  /** The line of the file where it starts (1-based). */
  line: number;
}

/** One `sh` block of a runbook. */
export interface RunbookBlock {
  line: number;
  commands: RunbookCommand[];
  /** Why it is not run; null when it is. */
  skip: string | null;
  /** Run on its own until its output matches `until`. */
  background: { name: string; until: RegExp } | null;
  captures: { name: string; pattern: RegExp }[];
}

const DIRECTIVE = /^<!--\s*runbook:\s*(skip|background|capture)\s+([\s\S]*?)\s*-->\s*$/;

/** The blocks of the Markdown `text` (a runbook), in order; throws for a directive it cannot read, naming its line. */
export function readRunbook(text: string, file = 'runbook'): RunbookBlock[] {
  const tokens = new MarkdownIt('commonmark').parse(text, {});
  const blocks: RunbookBlock[] = [];
  let pending: Pick<RunbookBlock, 'skip' | 'background'> = { skip: null, background: null };
  for (const token of tokens) {
    const line = (token.map?.[0] ?? 0) + 1;
    if (token.type === 'html_block') {
      const m = DIRECTIVE.exec(token.content.trim());
      if (!m) continue;
      const [, verb, rest] = m;
      if (verb === 'skip') pending = { ...pending, skip: rest };
      else if (verb === 'background') pending = { ...pending, background: backgroundOf(rest, `${file}:${line}`) };
      else {
        const last = blocks.at(-1);
        if (!last) throw new Error(`${file}:${line}: a capture names no block before it`);
        last.captures.push(captureOf(rest, `${file}:${line}`));
      }
      continue;
    }
    if (token.type !== 'fence' || !/^(sh|bash)\b/.test(token.info)) continue;
    blocks.push({ line, commands: commandsOf(token.content, line + 1), captures: [], ...pending });
    pending = { skip: null, background: null };
  }
  return blocks;
}

function backgroundOf(rest: string, where: string): RunbookBlock['background'] {
  const m = /^(\w+)\s+until\s+\/(.+)\/$/.exec(rest);
  if (!m) throw new Error(`${where}: write 'runbook: background <name> until /<regex>/'`);
  return { name: m[1], until: new RegExp(m[2]) };
}

function captureOf(rest: string, where: string): RunbookBlock['captures'][number] {
  const m = /^(\w+)\s+\/(.+)\/$/.exec(rest);
  if (!m) throw new Error(`${where}: write 'runbook: capture <name> /<regex>/'`);
  return { name: m[1], pattern: new RegExp(m[2]) };
}

/** The commands of a block's text, each with the outcome lines after it; `first` is the file line of the text's first line. */
function commandsOf(content: string, first: number): RunbookCommand[] {
  const commands: RunbookCommand[] = [];
  let open: RunbookCommand | null = null;
  let heredoc: string | null = null;
  for (const [i, raw] of content.replace(/\n$/, '').split('\n').entries()) {
    const text = raw.trim();
    if (open && heredoc !== null) {
      open.text += `\n${raw}`;
      if (raw === heredoc) heredoc = null;
      continue;
    }
    if (open?.text.endsWith('\\')) {
      open.text += `\n${raw}`;
    } else if (text.startsWith('#')) {
      const said = text.replace(/^#\s?/, '');
      const last = commands.at(-1);
      if (!last) continue;
      const exit = /^exit (\d+)$/.exec(said);
      if (exit) last.exit = Number(exit[1]);
      else if (said !== '') last.expected.push(said);
    } else if (text !== '') {
      open = { text: raw, expected: [], exit: 0, line: first + i };
      commands.push(open);
      heredoc = /<<-?\s*'?"?(\w+)'?"?/.exec(raw)?.[1] ?? null;
      continue;
    }
    if (!open?.text.endsWith('\\')) open = null;
  }
  return commands;
}

/** A regular expression of an outcome line: its text, `…` any text, runs of spaces any run of spaces. */
export function outcomePattern(said: string): RegExp {
  const escaped = said
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'))
    .join('[\\s\\S]*?');
  return new RegExp(escaped);
}

/** What running a runbook did: the commands run, and the first that did not do as documented (null: none). */
export interface RunbookRun {
  commands: number;
  skipped: { line: number; reason: string }[];
  failure: string | null;
}

/** How a runbook is run: where, with what environment added, and how long a command may take (ms). */
export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  commandTimeoutMs?: number;
  backgroundTimeoutMs?: number;
  /** Told of each command as it starts (the file line and its text), for the test's output. */
  onCommand?: (command: RunbookCommand) => void;
  /** The package whose scripts `npm start` and `npm run` run without npm (see the top of this file); npm runs them when absent. */
  packageScripts?: PackageScripts;
}

/** What `package.json` says of a package's scripts. */
export interface PackageScripts {
  name: string;
  version: string;
  scripts: Record<string, string>;
}

/** Single-quoted for bash. */
function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A bash function `npm` that runs `pkg`'s scripts as npm 10 and 11 do for `npm start` and
 * `npm run [--silent|-s] <script> [-- args]`, and calls npm for anything else.
 */
export function npmScriptsFunction(pkg: PackageScripts): string {
  const cases = Object.entries(pkg.scripts)
    .filter(([name]) => !/^(pre|post)/.test(name) || !(name.replace(/^(pre|post)/, '') in pkg.scripts))
    .map(([name, script]) => {
      const pre = pkg.scripts[`pre${name}`];
      const post = pkg.scripts[`post${name}`];
      const steps = [
        pre === undefined ? null : `__npm_step ${quoted(`pre${name}`)} ${quoted(pre)}`,
        `__npm_step ${quoted(name)} ${quoted(script)} "$@"`,
        post === undefined ? null : `__npm_step ${quoted(`post${name}`)} ${quoted(post)}`,
      ].filter((step) => step !== null);
      return `    ${quoted(name)}) ${steps.join(' && ')} ;;`;
    });
  return [
    `__npm_step() {`,
    `  local event=$1 script=$2; shift 2`,
    `  [ -n "$__npm_silent" ] || printf '\\n> %s %s\\n> %s\\n\\n' ${quoted(`${pkg.name}@${pkg.version}`)} "$event" "$script${'$'}{*:+ $*}"`,
    `  PATH="$PWD/node_modules/.bin:$PATH" sh -c "$script"' "$@"' sh "$@"`,
    `}`,
    `npm() {`,
    `  local name __npm_silent=`,
    `  case "$1" in`,
    `    start) name=start; shift ;;`,
    `    run|run-script)`,
    `      shift`,
    `      while [ "$1" = --silent ] || [ "$1" = -s ]; do __npm_silent=1; shift; done`,
    `      name=$1; shift ;;`,
    `    *) command npm "$@"; return ;;`,
    `  esac`,
    `  [ "$1" = -- ] && shift`,
    `  case "$name" in`,
    ...cases,
    `    *) command npm run ${'$'}{__npm_silent:+--silent} "$name" -- "$@" ;;`,
    `  esac`,
    `}`,
  ].join('\n');
}

/** Runs the blocks of `file` (read with {@link readRunbook}) as {@link RunOptions} says; ends every process it started. */
export async function runRunbook(file: string, options: RunOptions): Promise<RunbookRun> {
  const blocks = readRunbook(readFileSync(file, 'utf8'), file);
  const shell = new Shell(options.cwd, options.env ?? {}, options.packageScripts ? npmScriptsFunction(options.packageScripts) : '');
  const values = new Map<string, string>();
  const run: RunbookRun = { commands: 0, skipped: [], failure: null };
  try {
    for (const block of blocks) {
      if (block.skip !== null) {
        run.skipped.push({ line: block.line, reason: block.skip });
        continue;
      }
      let output = '';
      if (block.background) {
        const text = block.commands.map((c) => fill(c.text, values)).join('\n');
        options.onCommand?.(block.commands[0]);
        const started = await shell.background(text, block.background.until, options.backgroundTimeoutMs ?? 60_000);
        run.commands += block.commands.length;
        if ('failure' in started) return { ...run, failure: `${file}:${block.line}: ${started.failure}` };
        values.set(`${block.background.name}_pid`, String(started.pid));
        output = started.output;
        const said = block.commands.flatMap((c) => c.expected).find((line) => !outcomePattern(line).test(output));
        if (said !== undefined)
          return { ...run, failure: `${file}:${block.line}: its output did not show "${said}":\n${output.slice(-1500)}` };
      } else {
        for (const command of block.commands) {
          options.onCommand?.(command);
          const done = await shell.run(fill(command.text, values), options.commandTimeoutMs ?? 120_000);
          run.commands++;
          const problem = outcomeProblem(command, done);
          if (problem) return { ...run, failure: `${file}:${command.line}: ${problem}` };
          output += done.output;
        }
      }
      for (const capture of block.captures) {
        const m = capture.pattern.exec(output);
        if (!m) return { ...run, failure: `${file}:${block.line}: nothing in its output matches the capture of <${capture.name}>` };
        values.set(capture.name, m[1] ?? m[0]);
      }
    }
    return run;
  } finally {
    await shell.close();
  }
}

/** `text` with each `<name>` that has a value replaced by it. */
function fill(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(/<(\w+)>/g, (whole, name: string) => values.get(name) ?? whole);
}

/** Why a command's run is not what its block documents, or null. */
function outcomeProblem(command: RunbookCommand, done: { code: number | null; output: string }): string | null {
  const shown = done.output.length > 1500 ? `…${done.output.slice(-1500)}` : done.output;
  if (done.code !== command.exit) return `\`${command.text}\` exited ${done.code}, not ${command.exit}:\n${shown}`;
  for (const said of command.expected) {
    if (!outcomePattern(said).test(done.output)) return `\`${command.text}\` did not show "${said}":\n${shown}`;
  }
  return null;
}

/**
 * The last process of the chain `pid` started (npm → sh → node: the node process), from
 * `/proc/<pid>/task/<tid>/children`; `pid` when it started none.
 */
function leafOf(pid: number): number {
  for (let current = pid; ;) {
    let children: number[] = [];
    try {
      children = readdirSync(`/proc/${current}/task`).flatMap((task) =>
        readFileSync(`/proc/${current}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
    } catch {
      return current;
    }
    if (children.length === 0) return current;
    current = children[children.length - 1];
  }
}

/** One bash session, fed a command at a time; background blocks in bash sessions of their own. */
class Shell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly others: ChildProcessWithoutNullStreams[] = [];
  private count = 0;

  /** `prelude`: bash code every session and background block runs first (functions it defines). */
  constructor(
    private readonly cwd: string,
    private readonly env: Record<string, string>,
    private readonly prelude: string,
  ) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { ...process.env, ...env }, detached: true });
    this.bash.stdout.on('data', (c: Buffer) => (this.buffer += c.toString()));
    this.bash.stderr.on('data', (c: Buffer) => (this.buffer += c.toString()));
    if (prelude !== '') this.bash.stdin.write(`${prelude}\n`);
  }

  /** Runs `text` in the session; its output (stdout and stderr) and exit code, null past `timeoutMs`. */
  async run(text: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
    const marker = `__runbook_${process.pid}_${++this.count}__`;
    this.buffer = '';
    this.bash.stdin.write(`${text}\nprintf '\\n${marker} %s\\n' "$?"\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = new RegExp(`\\n?${marker} (\\d+)\\n`).exec(this.buffer);
      if (m) return { code: Number(m[1]), output: this.buffer.slice(0, m.index) };
      if (Date.now() > deadline) return { code: null, output: `${this.buffer}\n(no end after ${timeoutMs} ms)` };
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Starts `text` in a bash session of its own and waits until its output matches `until`. */
  async background(text: string, until: RegExp, timeoutMs: number): Promise<{ pid: number; output: string } | { failure: string }> {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', this.prelude === '' ? text : `${this.prelude}\n${text}`], {
      cwd: this.cwd,
      env: { ...process.env, ...this.env },
      detached: true,
    });
    this.others.push(child);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + timeoutMs;
    while (!until.test(output)) {
      if (child.exitCode !== null)
        return { failure: `\`${text}\` ended (${child.exitCode}) before its output matched ${until}:\n${output.slice(-1500)}` };
      if (Date.now() > deadline) return { failure: `\`${text}\` did not match ${until} within ${timeoutMs} ms:\n${output.slice(-1500)}` };
      await new Promise((r) => setTimeout(r, 50));
    }
    return { pid: leafOf(child.pid!), output };
  }

  /** Ends the session and every process it or a background block started (their process groups). */
  async close(): Promise<void> {
    for (const child of [this.bash, ...this.others]) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const ended = new Promise((r) => child.once('close', r));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await ended;
    }
  }
}
