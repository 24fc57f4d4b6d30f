import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { feedbackPrompt } from "../../../src/judge/feedback-prompt";
import { FEEDBACK_PROMPT_VERSION, promptVersion, RUBRIC_PROMPT_VERSION, TEMPLATE_VERSIONS } from "../../../src/judge/prompt-version";
import { individualPrompt, pairwisePrompt, pairwiseSchema, individualSchema, type QuestionContext } from "../../../src/judge/prompts";
import { rubricPrompt, rubricSchema } from "../../../src/judge/rubric";
import type { Template } from "../../../src/judge/templates";
import type { Rubric } from "../../../src/model/evaluation";

// Each prompt's text, rendered for fixed fills, hashed; every version a prompt has had, with its hash.
// A change to a prompt's wording changes its hash: the test then fails until the prompt's version is
// bumped (src/judge/prompt-version.ts) and the new pair added here. Old pairs stay, as a record.
const RECORDED: Record<string, Record<string, string>> = {
  exam: { "1": "87b950e543e3aa61" },
  "exam-de": { "1": "0e8a9b609e7ebccc" },
  translation: { "1": "f2e1f7becc66f968" },
  rubric: { "1": "2de5d16369016f4f" },
  feedback: { "1": "46f63aa94f67096f" },
};

const RUBRIC: Rubric = {
  criteria: [
    { name: "correctness", description: "is it right", maxScore: 6 },
    { name: "clarity", maxScore: 4 },
  ],
};
const ctx = (template: Template, reference?: string): QuestionContext => ({ template, question: "Q?", reference, maxScore: 10 });
const text = (messages: { content: string }[]) => messages.map((m) => m.content).join("\n---\n");
const sha = (parts: unknown[]) => createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);

function templateText(template: Template): string {
  return sha(
    [undefined, "R."].flatMap((reference) => [
      text(pairwisePrompt(ctx(template, reference), "A one.", "A two.")),
      text(individualPrompt(ctx(template, reference), "A one.")),
      pairwiseSchema(ctx(template, reference)),
      individualSchema(ctx(template, reference)),
    ]),
  );
}

const rendered: Record<string, { version: string; hash: string }> = {
  ...Object.fromEntries(
    (Object.keys(TEMPLATE_VERSIONS) as Template[]).map((t) => [t, { version: TEMPLATE_VERSIONS[t], hash: templateText(t) }]),
  ),
  rubric: {
    version: RUBRIC_PROMPT_VERSION,
    hash: sha(
      (Object.keys(TEMPLATE_VERSIONS) as Template[]).flatMap((t) => [
        text(rubricPrompt(ctx(t, "R."), RUBRIC, "A.")),
        rubricSchema(ctx(t), RUBRIC),
      ]),
    ),
  },
  feedback: {
    version: FEEDBACK_PROMPT_VERSION,
    hash: sha(
      (Object.keys(TEMPLATE_VERSIONS) as Template[]).flatMap((t) => [
        text(feedbackPrompt(ctx(t, "R."), RUBRIC, "A.")),
        text(feedbackPrompt(ctx(t), null, "A.")),
      ]),
    ),
  },
};

describe("prompt versions", () => {
  it.each(Object.keys(rendered))("%s: its text is the one recorded for its version (bump the version when the text changes)", (name) => {
    const { version, hash } = rendered[name];
    const known = RECORDED[name] ?? {};
    expect(known[version], `${name}@${version} is not recorded: add it with its hash ${hash}`).toBeDefined();
    expect(hash, `${name}@${version}'s text changed: bump its version in src/judge/prompt-version.ts and record ${hash}`).toBe(
      known[version],
    );
  });

  it("names each prompt an evaluation uses", () => {
    expect(promptVersion("exam")).toBe(`exam@${TEMPLATE_VERSIONS.exam}`);
    expect(promptVersion("translation", { rubric: true, feedback: true })).toBe(
      `translation@${TEMPLATE_VERSIONS.translation}+rubric@${RUBRIC_PROMPT_VERSION}+feedback@${FEEDBACK_PROMPT_VERSION}`,
    );
  });
});
