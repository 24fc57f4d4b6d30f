import fs from "node:fs";
import path from "node:path";

const root = path.join(import.meta.dirname, "../..");

/** The user's documentation, the front door first: the README, then every page of docs/ by name. */
export function docFiles(): string[] {
  const pages = fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...pages];
}

export function readDoc(file: string): string {
  return fs.readFileSync(path.join(root, file), "utf8");
}

export { root as projectRoot };

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a Markdown file offers: one per heading outside code blocks. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && line.match(/^#{1,6} (.*)$/);
    if (heading) found.add(anchorOf(heading[1]));
  }
  return found;
}

/** Every relative link of a Markdown file (outside code), as [target file, anchor]. */
export function relativeLinks(markdown: string): { target: string; anchor: string | null; text: string }[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/i.test(href))
    .map((href) => {
      const [target, anchor] = href.split("#");
      return { target, anchor: anchor ?? null, text: href };
    });
}
