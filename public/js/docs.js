// @ts-check
// The API docs: Swagger UI (served from /vendor, see scripts/vendor-docs.mjs) over /openapi.json.
const ui = /** @type {any} */ (globalThis).SwaggerUIBundle;
const status = document.getElementById("status");
if (typeof ui !== "function") {
  if (status) status.textContent = "The docs renderer is not installed here; the description itself is at /openapi.json.";
} else {
  ui({ url: "/openapi.json", dom_id: "#docs", deepLinking: true });
  status?.remove();
}
