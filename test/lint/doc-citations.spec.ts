/**
 * Citations that cannot rot: every `<file>.md "Section"` in the repository's source, tests and
 * docs names a heading (any level) of that file, and every `docs/<path>` named exists. Headings
 * are read with markdown-it, as a reader's renderer reads them; only the citations are found by
 * pattern. A file named bare (`DESIGN.md "Layout"`) is looked for beside the citing file, then at
 * the root, then under docs/. A section quoted without a file (`("Layout")`) is out of scope.
 * `DESIGN.md ruling 14` and `DESIGN.md property 3` name an item, by its number, of the ordered list
 * under the heading that starts "Rulings" or "Properties".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';

const ROOT = join(__dirname, '..', '..');
const SELF = relative(ROOT, __filename);

/** Directories never read: installs, builds, data, and anything hidden. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage']);
const TEXT_FILE = /(\.(ts|js|mjs|cjs|md|ya?ml|json|sh|html|njk|css|txt)|^Dockerfile)$/;
const SKIPPED_FILES = new Set(['package-lock.json']);

/** Blank space between two parts of a citation, across at most one line break and its comment marker. */
const GAP = String.raw`(?:[ \t]+|[ \t]*\r?\n[ \t]*(?:\*(?!/)|//+|#+)?[ \t]*)`;
/** A quoted section: no quote inside; a line break only where a comment wraps. */
const QUOTED = String.raw`"((?:[^"\n\\]|\\.|\r?\n[ \t]*(?:\*(?!/)|//+|#+)?)+?)"`;
const CITATION = new RegExp(
  String.raw`(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\`?,?${GAP}\(?((?:${QUOTED})(?:(?:,|${GAP}and|${GAP}or)${GAP}?${QUOTED})*)`,
  'g',
);
const EACH_QUOTED = new RegExp(QUOTED, 'g');
/** `DESIGN.md ruling 14`, `docs/DESIGN.md rulings 4, 7 and 8`, `DESIGN.md property 3`: numbered items of a list under a heading. */
const NUMBERED = new RegExp(
  String.raw`(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\`?,?${GAP}\(?(rulings?|property|properties)${GAP}(\d+(?:(?:,|${GAP}and)${GAP}?\d+)*)`,
  'g',
);

const DOCS_PATH = /(?<![\w/.-])docs\/[\w./-]*[\w/]/g;

/** One citation of a section: where it stands, the file it names as written, and the section as cited. */
interface Citation {
  at: string;
  file: string;
  section: string;
}

/** The section citations in `text` (the contents of the file `at`, repository-relative). */
function citationsIn(text: string, at: string): Citation[] {
  const found: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const line = text.slice(0, m.index).split('\n').length;
    for (const q of m[2].matchAll(EACH_QUOTED)) {
      found.push({ at: `${at}:${line}`, file: m[1], section: normalise(q[1]) });
    }
  }
  return found;
}

/** The numbered items cited in `text` (`ruling 14` → { list: 'Rulings', number: 14 }), each with where it stands and its file. */
function numberedCitationsIn(text: string, at: string): (Omit<Citation, 'section'> & { list: string; number: number })[] {
  const found: (Omit<Citation, 'section'> & { list: string; number: number })[] = [];
  for (const m of text.matchAll(NUMBERED)) {
    const line = text.slice(0, m.index).split('\n').length;
    const list = m[2].startsWith('ruling') ? 'Rulings' : 'Properties';
    for (const n of m[3].match(/\d+/g) ?? []) found.push({ at: `${at}:${line}`, file: m[1], list, number: Number(n) });
  }
  return found;
}

/** A section as a reader sees it: one line, no comment markers, no escapes, no code backticks. */
function normalise(section: string): string {
  return section
    .replace(/\s*\r?\n\s*(?:\*(?!\/)|\/\/+|#+)?\s*/g, ' ')
    .replace(/\\(.)/g, '$1')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of every heading of a Markdown document, any level, as rendered (code spans without backticks). */
function headingsOf(markdown: string): Set<string> {
  const tokens = new MarkdownIt('commonmark').parse(markdown, {});
  const headings = new Set<string>();
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const inline = tokens[i + 1];
    const text = (inline.children ?? []).map((child) => (['text', 'code_inline'].includes(child.type) ? child.content : '')).join('');
    headings.add(text.replace(/\s+/g, ' ').trim());
  });
  return headings;
}

/**
 * The numbers of the items of the first ordered list under the first heading that starts with
 * `prefix` (before the next heading), as written (`14.` is 14); empty when there is none.
 */
function numberedItemsUnder(markdown: string, prefix: string): Set<number> {
  const tokens = new MarkdownIt('commonmark').parse(markdown, {});
  const start = tokens.findIndex((t, i) => t.type === 'heading_open' && tokens[i + 1].content.startsWith(prefix));
  const numbers = new Set<number>();
  if (start < 0) return numbers;
  let depth = 0;
  for (const token of tokens.slice(start + 3)) {
    if (token.type === 'heading_open' || (depth === 0 && numbers.size > 0)) break;
    if (token.type === 'ordered_list_open') depth += 1;
    else if (token.type === 'ordered_list_close') depth -= 1;
    else if (token.type === 'list_item_open' && depth === 1) numbers.add(Number(token.info));
  }
  return numbers;
}

/** The repository-relative file a citation in `from` names, or null when none exists. */
function resolveCited(file: string, from: string, exists: (path: string) => boolean): string | null {
  const candidates = file.includes('/') ? [file] : [join(dirname(from), file), file, join('docs', file)];
  return candidates.find((path) => exists(path)) ?? null;
}

/** Every citation of `texts` (path → contents) that names no file or no heading of it, as a line a reader can act on. */
function brokenCitations(texts: Map<string, string>, read: (path: string) => string | null): string[] {
  const headings = new Map<string, Set<string> | null>();
  const headingsIn = (path: string): Set<string> | null => {
    if (!headings.has(path)) {
      const markdown = read(path);
      headings.set(path, markdown === null ? null : headingsOf(markdown));
    }
    return headings.get(path) ?? null;
  };
  const lists = new Map<string, Set<number>>();
  const broken: string[] = [];
  for (const [path, text] of texts) {
    for (const c of citationsIn(text, path)) {
      const target = resolveCited(c.file, path, (p) => headingsIn(p) !== null);
      if (target === null) broken.push(`${c.at}: ${c.file} does not exist`);
      else if (!headingsIn(target)?.has(c.section)) broken.push(`${c.at}: ${target} has no heading "${c.section}"`);
    }
    for (const c of numberedCitationsIn(text, path)) {
      const target = resolveCited(c.file, path, (p) => headingsIn(p) !== null);
      if (target === null) {
        broken.push(`${c.at}: ${c.file} does not exist`);
        continue;
      }
      const key = `${target}#${c.list}`;
      if (!lists.has(key)) lists.set(key, numberedItemsUnder(read(target) ?? '', c.list));
      if (!lists.get(key)?.has(c.number)) broken.push(`${c.at}: ${target} has no item ${c.number} under "${c.list}…"`);
    }
  }
  return broken;
}

/** Every `docs/<path>` named in `texts` that does not exist. */
function missingDocsPaths(texts: Map<string, string>, exists: (path: string) => boolean): string[] {
  const missing: string[] = [];
  for (const [path, text] of texts) {
    for (const m of text.matchAll(DOCS_PATH)) {
      const named = m[0].replace(/\.+$/, '');
      if (!exists(named)) missing.push(`${path}:${text.slice(0, m.index).split('\n').length}: ${named} does not exist`);
    }
  }
  return missing;
}

/** The repository's text files (source, tests, docs, configuration), repository-relative, without this file. */
function repositoryTexts(): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = dir ? join(dir, entry.name) : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && TEXT_FILE.test(entry.name) && !SKIPPED_FILES.has(entry.name) && path !== SELF) {
        texts.set(path, readFileSync(join(ROOT, path), 'utf8'));
      }
    }
  };
  walk('');
  return texts;
}

const readInRepo = (path: string): string | null => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null);

describe('citations of documents', () => {
  const texts = repositoryTexts();

  it('finds citations as they are written: after a comma, in parentheses, in backticks, several at once, wrapped over a comment line', () => {
    const text = [
      '// see docs/DESIGN.md "Personal data", "Who holds what" and "Erasure"',
      ' * (docs/operations.md, "Backups and',
      ' * restore"; DESIGN.md ("The shared kernel")), `docs/operations.md` "Limits"',
      'a section ("Layout") alone, a string "docs/x.md", "y" in a list',
    ].join('\n');
    expect(citationsIn(text, 'f.ts')).toEqual([
      { at: 'f.ts:1', file: 'docs/DESIGN.md', section: 'Personal data' },
      { at: 'f.ts:1', file: 'docs/DESIGN.md', section: 'Who holds what' },
      { at: 'f.ts:1', file: 'docs/DESIGN.md', section: 'Erasure' },
      { at: 'f.ts:2', file: 'docs/operations.md', section: 'Backups and restore' },
      { at: 'f.ts:3', file: 'DESIGN.md', section: 'The shared kernel' },
      { at: 'f.ts:3', file: 'docs/operations.md', section: 'Limits' },
    ]);
  });

  it('reads headings of any level with markdown-it, code spans as their text, and not a line in a fence', () => {
    const headings = headingsOf('# A\n\nSetext B\n--------\n\n#### The files under `DATA_DIR`\n\n```sh\n# not a heading\n```\n');
    expect([...headings]).toEqual(['A', 'Setext B', 'The files under DATA_DIR']);
  });

  it('reports a made-up section, a missing file and a ruling or property that is not in its list, and passes real ones', () => {
    const docs = new Map([
      [
        'docs/DESIGN.md',
        '# Design\n\n## Personal data\n\n## Rulings\n\n1. One.\n2. Two.\n   1. Not a ruling.\n\n## Words\n\n3. Nor this.\n',
      ],
    ]);
    const read = (path: string): string | null => docs.get(path) ?? null;
    const cited = new Map([
      ['libs/a.ts', '// docs/DESIGN.md "Personal data"; docs/DESIGN.md "No such section"'],
      ['docs/b.md', 'See DESIGN.md "Personal data" and docs/NOWHERE.md "Anything".'],
      ['libs/c.ts', '// docs/DESIGN.md rulings 1, 2 and 3; docs/DESIGN.md property 1'],
    ]);
    expect(brokenCitations(cited, read)).toEqual([
      'libs/a.ts:1: docs/DESIGN.md has no heading "No such section"',
      'docs/b.md:1: docs/NOWHERE.md does not exist',
      'libs/c.ts:1: docs/DESIGN.md has no item 3 under "Rulings…"',
      'libs/c.ts:1: docs/DESIGN.md has no item 1 under "Properties…"',
    ]);
  });

  it('every section cited in the repository is a heading of the file it names, every ruling and property an item of its list', () => {
    expect(brokenCitations(texts, readInRepo)).toEqual([]);
  });

  it('every docs/<path> named in the repository exists', () => {
    expect(missingDocsPaths(texts, (path) => existsSync(join(ROOT, path)))).toEqual([]);
  });
});
