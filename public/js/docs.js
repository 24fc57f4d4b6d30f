// @ts-check
// The API docs: Swagger UI (served from /vendor, see scripts/vendor-docs.mjs) over /openapi.json.
const render = /** @type {any} */ (globalThis).SwaggerUIBundle;
const loading = document.getElementById("status");
if (typeof render !== "function") {
  if (loading) loading.textContent = "The docs renderer is not installed here; the description itself is at /openapi.json.";
} else {
  render({ url: "/openapi.json", dom_id: "#docs", deepLinking: true });
  loading?.remove();
}
