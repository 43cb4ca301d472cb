/**
 * A small reader of the repository's Dockerfile, enough for the checks of test/ops/container-image.spec.ts: the instructions
 * of each stage, as the Dockerfile reference reads them (a trailing `\` continues a line, a line starting with `#` is a comment,
 * also inside a continued instruction; the keyword is case-insensitive). No parser directives, heredocs or JSON-form COPY.
 */

export interface Instruction {
  /** Upper case: `FROM`, `RUN`, `COPY`, … */
  keyword: string;
  /** The rest of the instruction, continuation lines joined by one space. */
  args: string;
}

export interface Stage {
  /** The `AS` name, or null. */
  name: string | null;
  /** The instructions after its FROM. */
  instructions: Instruction[];
}

/** The stages of the Dockerfile `text`, in order. */
export function stagesOf(text: string): Stage[] {
  const stages: Stage[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const whole = `${pending}${line}`.trim();
    pending = '';
    if (whole === '') continue;
    const [, word, args] = /^(\S+)\s*(.*)$/.exec(whole)!;
    const keyword = word.toUpperCase();
    if (keyword === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(args)?.[1] ?? null, instructions: [] });
    else stages[stages.length - 1]?.instructions.push({ keyword, args });
  }
  return stages;
}

/** The simple commands of a RUN's shell text, split at `&&`, `;` and `||`, each as its words (no quoting in this Dockerfile). */
export function commandsOf(run: string): string[][] {
  return run
    .split(/&&|\|\||;/)
    .map((c) => c.trim().split(/\s+/))
    .filter((words) => words[0] !== '');
}
