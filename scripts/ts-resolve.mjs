// The project's TypeScript as Node loads it from a clone (the CLI in bin/, the benches): a relative
// import without an extension (or with ".js", as src/ratings writes them), which the Worker's bundler
// accepts and Node cannot find, resolves to the .ts file beside it. Imported first, before src/.
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
