import { describe, expect, it } from "vitest";
import { sharedPrefix } from "../../src/judge/prompts";
import { answers, judgeLog, newKey, request, uniqueTag, waitUntilDone } from "./helpers";

describe("usage: prompt tokens and the prefix shared across an evaluation's calls", () => {
  it("reports the shared-prefix tokens the judge's own token counts imply, and their share", async () => {
    const key = await newKey("school");
    const tag = uniqueTag("prefix");
    const question = `Explain what a hash table does and why lookups are fast on average. [tag:${tag}]`;
    const reference = "It maps keys to buckets with a hash function; a lookup hashes the key and reads one bucket.";
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question, reference, answers: answers([3, 8, 1, 6, 4]), maxScore: 10 },
    });
    const result = await waitUntilDone(created.json.id, key);
    expect(result.status).toBe("completed");

    const log = await judgeLog(tag);
    const prefix = sharedPrefix({ template: "exam", question, reference, maxScore: 10 }, "pairwise");
    // every prompt really starts with the prefix: it is what vLLM's prefix cache can reuse
    for (const e of log) expect(e.prompt.startsWith(prefix)).toBe(true);
    // the test judge counts ceil(chars / 4) prompt tokens; the prefix's part is in proportion to its characters
    const tokens = log.map((e) => Math.ceil(e.prompt.length / 4));
    expect(result.usage.promptTokens).toBe(tokens.reduce((s, t) => s + t, 0));
    const shared = log.reduce((s, e, i) => s + Math.round((tokens[i] * prefix.length) / e.prompt.length), 0);
    expect(result.usage.sharedPrefixTokens).toBe(shared);
    expect(result.usage.sharedPrefixShare).toBeCloseTo(shared / result.usage.promptTokens, 3);
    expect(result.usage.sharedPrefixShare).toBeGreaterThan(0.3);
    expect(result.usage.sharedPrefixShare).toBeLessThan(1);
  });
});
