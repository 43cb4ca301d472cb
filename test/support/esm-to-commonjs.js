/**
 * Jest transform for the ES-module-only packages of the page's sign-in (openid-client, oauth4webapi, jose, oidc-provider): Jest's
 * CommonJS runtime cannot `require` an ES module before Node 24.9, though Node 20.19+ itself can, so the built app loads them as they
 * are. TypeScript's own transpiler rewrites each file's `import`/`export` to `require`/`exports`, nothing else; none of these files uses
 * `import.meta` or a top-level `await`, which this could not rewrite.
 */
const { createHash } = require('node:crypto');
const ts = require('typescript');

const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, allowJs: true, esModuleInterop: true, sourceMap: false };

module.exports = {
  process(source, path) {
    return { code: ts.transpileModule(source, { compilerOptions: options, fileName: path }).outputText };
  },
  getCacheKey(source, path) {
    return createHash('sha256').update(ts.version).update('\0').update(path).update('\0').update(source).digest('hex');
  },
};
