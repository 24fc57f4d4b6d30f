// @ts-check
// The page's own elements, found by id. A missing one is a mistake in the page, not a state to handle:
// it fails here, naming the id, rather than as "null has no properties" somewhere further on.

/**
 * The element with this id, checked to be of `kind` (an input, a select…) when the script needs more
 * than an HTMLElement.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T }} [kind]
 * @returns {T}
 */
export function $(id, kind) {
  const el = document.getElementById(id);
  if (!(el instanceof (kind ?? HTMLElement))) throw new Error(`the page has no ${kind?.name ?? "element"} #${id}`);
  return /** @type {T} */ (el);
}
