// The API docs page (/docs) renders /openapi.json with Swagger UI, served from this service's own
// static assets (no CDN at run time, and the pages' Content-Security-Policy allows scripts from this
// origin only). npm install copies the renderer from node_modules into public/vendor, which git ignores.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const from = path.join(root, "node_modules/swagger-ui-dist");
const to = path.join(root, "public/vendor/swagger-ui");
if (!fs.existsSync(from)) {
  // a production install without dev dependencies: the docs page says so instead of rendering
  console.warn("vendor-docs: swagger-ui-dist is not installed; /docs will not render");
  process.exit(0);
}
fs.mkdirSync(to, { recursive: true });
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"])
  fs.copyFileSync(path.join(from, file), path.join(to, file));
