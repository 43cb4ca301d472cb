/**
 * Ajv validators of the schemas inside one OpenAPI 3.1 document, compiled once per machine: each
 * validator Ajv compiles is also written as standalone code (Ajv's `standaloneCode`) under
 * `node_modules/.cache/openapi-validators/`, keyed by a hash of the document, the Ajv options and
 * the schema's pointer, and every later test file that checks answers against the same document
 * loads the code instead of compiling again (compiling costs about a second a file).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';

/** Ajv's id for the document, so `#/components/...` refs inside its schemas resolve. */
const DOCUMENT_ID = 'https://openapi.invalid/document.json';

/** Where the compiled code is kept; documents are directories, the newest {@link KEPT_DOCUMENTS} kept. */
export const COMPILED_SCHEMAS_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'openapi-validators');

/** How many documents' directories the cache keeps (each edit of the served document makes a new one). */
const KEPT_DOCUMENTS = 24;

/** What decides a validator's code besides the document: Ajv's version and options. */
const AJV_VERSION: string = (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string }).version;

/**
 * The validators of one document's schemas, for bodies (`coerceTypes` false) or for path parameters
 * and headers, which arrive as strings (`coerceTypes` true, the value coerced to the schema's type).
 */
export class CompiledSchemas {
  private ajv: Ajv2020 | null = null;
  private readonly validators = new Map<string, ValidateFunction | Error>();
  private readonly dir: string;

  /**
   * `document`: the cleaned OpenAPI document (never changed afterwards); `documentHash`: a hash of
   * its JSON text (see {@link documentHash}); `cacheDir`: null keeps nothing on disk.
   */
  constructor(
    private readonly document: Record<string, unknown>,
    documentHash: string,
    private readonly coerceTypes: boolean,
    cacheDir: string | null = COMPILED_SCHEMAS_DIR,
  ) {
    this.dir = cacheDir === null ? '' : join(cacheDir, documentHash);
  }

  /**
   * The validator of the schema at `schemaPointer` (a JSON pointer into the document, its segments
   * URI-encoded), or the Error saying why it cannot be compiled; compiled, or loaded from the cache,
   * once per instance.
   */
  validator(schemaPointer: string): ValidateFunction | Error {
    let validate = this.validators.get(schemaPointer);
    if (!validate) {
      validate = this.load(schemaPointer) ?? this.compile(schemaPointer);
      this.validators.set(schemaPointer, validate);
    }
    return validate;
  }

  private fileOf(schemaPointer: string): string {
    const options = JSON.stringify({ ajv: AJV_VERSION, coerceTypes: this.coerceTypes });
    return join(this.dir, `${createHash('sha256').update(options).update('\0').update(schemaPointer).digest('hex')}.js`);
  }

  private load(schemaPointer: string): ValidateFunction | null {
    if (!this.dir) return null;
    let code: string;
    try {
      code = readFileSync(this.fileOf(schemaPointer), 'utf8');
    } catch {
      return null;
    }
    const module = { exports: {} as unknown };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    return module.exports as ValidateFunction;
  }

  private compile(schemaPointer: string): ValidateFunction | Error {
    let validate: ValidateFunction;
    try {
      validate = this.ajvInstance().compile({ $ref: `${DOCUMENT_ID}#${schemaPointer}` });
    } catch (error) {
      return new Error(`the schema at #${decodeURIComponent(schemaPointer)} cannot be compiled: ${(error as Error).message}`);
    }
    if (this.dir) this.keep(schemaPointer, standaloneCode(this.ajvInstance(), validate));
    return validate;
  }

  /** Writes the code whole or not at all (another worker may read or write the same file at once). */
  private keep(schemaPointer: string, code: string): void {
    const file = this.fileOf(schemaPointer);
    const fresh = !existsDir(this.dir);
    mkdirSync(this.dir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, code);
    renameSync(temporary, file);
    if (fresh) pruneOldDocuments(join(this.dir, '..'));
  }

  private ajvInstance(): Ajv2020 {
    if (!this.ajv) {
      // strict: false lets OpenAPI's own keywords (example, discriminator, xml, externalDocs, x-*)
      // and unknown formats pass as annotations; logger: false keeps Ajv from warning about each.
      this.ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: this.coerceTypes, logger: false, code: { source: true } });
      addFormats(this.ajv);
      this.ajv.addSchema(this.document, DOCUMENT_ID, undefined, false);
    }
    return this.ajv;
  }
}

/** The hash naming a document's directory in the cache: SHA-256 of its JSON text, hex. */
export function documentHash(document: unknown): string {
  return createHash('sha256').update(JSON.stringify(document)).digest('hex');
}

/** A path's modification time in ms; 0 when another process removed it meanwhile. */
function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function existsDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Removes all but the newest {@link KEPT_DOCUMENTS} documents' directories. */
function pruneOldDocuments(cacheDir: string): void {
  const dirs = readdirSync(cacheDir)
    .map((name) => ({ path: join(cacheDir, name), at: mtimeOf(join(cacheDir, name)) }))
    .sort((a, b) => b.at - a.at);
  for (const old of dirs.slice(KEPT_DOCUMENTS)) rmSync(old.path, { recursive: true, force: true });
}
