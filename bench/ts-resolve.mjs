// The project's TypeScript as the benches load it in Node: a relative import without an extension (or
// with ".js", as src/ratings writes them) that Node cannot find resolves to the .ts file beside it.
// Imported first by each bench that loads src/, before its own imports of it.
import { registerHooks } from "node:module";

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      if (err?.code !== "ERR_MODULE_NOT_FOUND" || !/^\.{1,2}\//.test(specifier)) throw err;
      return nextResolve(specifier.endsWith(".js") ? `${specifier.slice(0, -3)}.ts` : `${specifier}.ts`, context);
    }
  },
});
