import type { Launch } from "./launch";
import { type LaunchRefusal, refusalText } from "./refusals";

/**
 * The HTML of a refused launch and of a launch that went through: plain pages with no script, built
 * here so that every value they show is escaped in one place. They open inside the LMS's frame, so any
 * site may frame them (there is nothing to act on in them yet); nothing else may load in them.
 */
export const LTI_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *; base-uri 'none'; form-action 'none'";

/**
 * The policy of an LTI page that holds a form: the same, but its form may post to `formAction` (this
 * service, or the platform's deep linking return URL), and with `scriptNonce` the one script that
 * carries it may run (the return page's auto-submit).
 */
export function ltiPagePolicy(formAction: string, scriptNonce: string | null = null): string {
  const script = scriptNonce ? `; script-src 'nonce-${scriptNonce}'` : "";
  return LTI_PAGE_POLICY.replace("form-action 'none'", `form-action ${formAction}`) + script;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .2em}label{display:block;margin-top:.8rem;font-weight:600}input,select,textarea{font:inherit;width:100%;box-sizing:border-box}textarea{min-height:6rem}.error{color:#a00}.box{border:1px solid #ccc;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}button{font:inherit;margin-top:1rem;padding:.4rem 1rem}</style></head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The page of a refused login or launch: what went wrong, in words to pass to the LMS admin. With
 * `openAgain` (the frame kept no cookie), a link that starts the same login in a new window.
 */
export function refusedPage(refusal: LaunchRefusal, openAgain: string | null = null): string {
  const again = openAgain
    ? `<p><a id="open-again" href="${escapeHtml(openAgain)}" target="_blank" rel="noopener">Open this activity in a new window</a>: there the browser keeps the sign-in.</p>\n`
    : "";
  return page(
    "Launch refused: knockout-judge",
    `<h1>This activity could not be opened</h1>
<p id="reason">${escapeHtml(refusalText(refusal))}</p>
${again}<p>If this keeps happening, send this page's text to your LMS administrator; the reason code is <code id="code">${escapeHtml(refusal.code)}</code>.</p>`,
  );
}

const ROLE_WORDS = { instructor: "instructor", learner: "learner", other: "neither instructor nor learner" } as const;

/**
 * The page of a launch that went through to nothing to open: who launched, as what, from which course
 * and link (a link not placed by this tool's deep linking, or a role neither learner nor instructor).
 */
export function launchedPage(launch: Launch): string {
  const who = launch.name ?? `user ${launch.sub}`;
  const link = launch.resourceLink
    ? `<p>Resource link: <span id="resource-link">${escapeHtml(launch.resourceLink.title ?? launch.resourceLink.id)}</span> (id <code>${escapeHtml(launch.resourceLink.id)}</code>)</p>
<p id="nothing-here">${launch.role === "other" ? "There is nothing here for your role in this course." : "This link names no question of knockout-judge: an instructor adds one from the activity picker."}</p>`
    : "";
  const course = launch.context ? `<p>Course: <span id="course">${escapeHtml(launch.context.title ?? launch.context.id)}</span></p>` : "";
  return page(
    "Launched: knockout-judge",
    `<h1>Signed in from your course</h1>
<p>Launched by <span id="who">${escapeHtml(who)}</span> as <span id="role">${ROLE_WORDS[launch.role]}</span>.</p>
${course}${link}`,
  );
}
