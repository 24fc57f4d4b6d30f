import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { judgeLog, newKey, request, uniqueTag, waitUntilDone } from "./helpers";

describe("at the limits of one evaluation", () => {
  it("grades 256 answers: 255 matches, all results in D1", async () => {
    const key = await newKey("big-course");
    const tag = uniqueTag("n256");
    const list = Array.from({ length: 256 }, (_, i) => ({ id: `a${i}`, text: `answer ${i}: q=${i % 10}` }));
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Big [tag:${tag}]`, answers: list, debias: false, seed: 5 },
    });
    expect(created.status).toBe(202);
    const result = await waitUntilDone(created.json.id, key, 60_000);
    expect(result.status).toBe("completed");
    expect(result.matches).toHaveLength(255);
    expect(result.usage.judgeCalls).toBe(255);
    expect(new Set(result.answers.map((a: { id: string }) => a.id)).size).toBe(256);
    expect(await judgeLog(tag)).toHaveLength(255);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM matches, json_each(matches.calls) WHERE evaluation_id = ?")
      .bind(created.json.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(255);
    // 255 calls through a gate of 4 take about 30 s beside another test file: the wait above allows 60
  }, 90_000);

  it("keeps answers of 20,000 characters verbatim through D1 and to the judge", async () => {
    const key = await newKey("essays");
    const tag = uniqueTag("long");
    const essay = (q: number, fill: string) => `q=${q} `.padEnd(20_000, fill);
    const list = [
      { id: "x", text: essay(3, "Ünïcödé ✓ `code` ") },
      { id: "y", text: essay(7, "plain words ") },
      { id: "z", text: essay(5, "```fence``` ") },
    ];
    expect(list.every((a) => a.text.length === 20_000)).toBe(true);
    const created = await request("POST", "/v1/evaluations", { key, body: { question: `Essays [tag:${tag}]`, answers: list } });
    expect(created.status).toBe(202);
    const result = await waitUntilDone(created.json.id, key);
    expect(result.status).toBe("completed");
    expect(result.champion).toBe("y");
    const rows = await env.DB.prepare("SELECT answer_id, text FROM answers WHERE evaluation_id = ? ORDER BY position")
      .bind(created.json.id)
      .all<{ answer_id: string; text: string }>();
    expect(rows.results.map((r) => r.text)).toEqual(list.map((a) => a.text));
    for (const a of list) expect((await judgeLog(tag)).some((e) => e.prompt.includes(a.text))).toBe(true);
  });
});
