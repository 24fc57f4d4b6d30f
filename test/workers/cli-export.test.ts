// `knockout-judge export` against the real service: the CLI's reader (src/cli/export.ts) with the typed
// client, whose fetch is this Worker's, on evaluations graded by the test judge server.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { csvRows } from "../../public/js/answers-file.js";
import { knockoutJudge } from "../../src/client";
import { readExport } from "../../src/cli/export";
import { EXPORT_COLUMNS } from "../../src/cli/export-rows";
import { answers, gateIdle, newKey, request, uniqueTag, until, waitUntilDone, releaseJudge } from "./helpers";

const SITE = "https://course.example";
const worker = (exports as unknown as { default: Fetcher }).default;
const client = (key: string) =>
  knockoutJudge({ baseUrl: "http://service.test", key, attempts: 1, fetch: (url, init) => worker.fetch(new Request(url, init)) });
const table = (csv: string) => {
  const [head, ...rows] = csvRows(csv.trimEnd()).rows as string[][];
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
};

describe("knockout-judge export", () => {
  it("writes each answer's final grade, where it came from, its release and the teacher's feedback, formulas neutralised", async () => {
    const key = await newKey("cli-export");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Q [tag:${uniqueTag("cli-export")}]`,
        reference: "LIFO",
        feedback: "judge",
        answers: answers([3, 7, 5]).map((a, i) => ({ ...a, examinee: ["=cmd|' /C calc'!A0", "ben", "cem"][i] })),
      },
    });
    const id = created.json.id as string;
    const done = await waitUntilDone(id, key);
    const judged = new Map(done.answers.map((a: any) => [a.id, a]));
    // the teacher grades s1, rewrites its feedback with a formula of its own, and releases it
    expect((await request("PUT", `/v1/evaluations/${id}/answers/s1/grade`, { key, body: { score: 4 } })).status).toBe(200);
    const note = '=HYPERLINK("http://evil.example") you named LIFO';
    expect((await request("PUT", `/v1/evaluations/${id}/answers/s1/feedback`, { key, body: { text: note } })).status).toBe(200);
    const released = await request("POST", `/v1/evaluations/${id}/release`, { key, body: { answers: ["s1"] } });
    const releasedAt = released.json.answers[0].releasedAt;

    const rows = table(await readExport(client(key), id, "csv"));
    expect(Object.keys(rows[0])).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((r) => [r.id, r.rank])).toEqual([
      ["s2", "1"],
      ["s3", "2"],
      ["s1", "3"],
    ]);
    const s1 = rows.find((r) => r.id === "s1")!;
    expect(s1).toMatchObject({
      examinee: "'=cmd|' /C calc'!A0",
      teacher_score: "4",
      final_score: "4",
      final_from: "teacher",
      released_at: releasedAt,
      feedback: `'${note}`,
      feedback_from: "teacher",
    });
    for (const other of ["s2", "s3"]) {
      const r = rows.find((x) => x.id === other)!;
      const a = judged.get(other) as any;
      // the judge's feedback as the service wrote it, its final grade, and no release
      expect(r).toMatchObject({ examinee: other === "s2" ? "ben" : "cem", final_from: "judge", released_at: "", feedback_from: "judge" });
      expect(r.final_score).toBe(String(a.finalScore));
      expect(r.feedback).toBe(a.feedback.text);
      expect(r.feedback).toMatch(/^Your answer is at quality \d+ of 10\./);
    }

    // JSON: the same rows, texts as they are, with the scale
    const json = JSON.parse(await readExport(client(key), id, "json"));
    expect(json).toMatchObject({ evaluation: id, maxScore: 10, gradeStep: 0.5 });
    expect(json.answers.find((a: any) => a.id === "s1")).toMatchObject({ final_score: 4, feedback: note, examinee: "=cmd|' /C calc'!A0" });

    // another tenant's key gets the service's 404, and nothing
    await expect(readExport(client(await newKey("cli-export-other")), id, "csv")).rejects.toThrow(/404/);
  });

  it("exports a collection by its id with the names its students gave, once graded; refuses before", async () => {
    const key = await newKey("cli-export-col");
    const c = (
      await request("POST", "/v1/collections", {
        key,
        body: { question: `What is a queue? [tag:${uniqueTag("cli-export-col")}]`, allowedOrigins: [SITE] },
      })
    ).json;
    for (const [i, name] of ["Ana", "@Ben"].entries()) {
      const sent = await request("POST", `/v1/public/collections/${c.publicToken}/answers`, {
        body: { text: `Answer q=${3 + 4 * i}`, name },
        headers: { origin: SITE, "cf-connecting-ip": `198.51.100.${i + 40}` },
      });
      expect(sent.status).toBe(201);
    }
    await expect(readExport(client(key), c.id, "csv")).rejects.toThrow(`collection ${c.id} is open and has no evaluation yet`);
    await request("POST", `/v1/collections/${c.id}/close`, { key });
    const graded = await until("graded", async () => {
      const r = (await request("GET", `/v1/collections/${c.id}`, { key })).json;
      return r.evaluation?.status === "completed" ? r : null;
    });
    const rows = table(await readExport(client(key), c.id, "csv"));
    const names = new Map(graded.answers.map((a: any) => [a.id, a.name]));
    expect(rows.map((r) => r.examinee).sort()).toEqual(["'@Ben", "Ana"]);
    for (const r of rows) expect(r.examinee.replace(/^'/, "")).toBe(names.get(r.id));
    // manual release (the collections' default): nothing released yet, the judge's feedback written
    expect(rows.map((r) => [r.final_from, r.released_at, r.feedback_from])).toEqual([
      ["judge", "", "judge"],
      ["judge", "", "judge"],
    ]);
  });

  it("refuses an evaluation that is still running: no grade is decided yet", async () => {
    const key = await newKey("cli-export-running");
    const tag = uniqueTag("cli-export-running");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}] [hold-after:0]`, answers: answers([1, 2]) },
    });
    const id = created.json.id as string;
    await expect(readExport(client(key), id, "csv")).rejects.toThrow(
      new RegExp(`^evaluation ${id} is (queued|running); only a completed evaluation's grades are exported$`),
    );
    await releaseJudge(tag);
    await waitUntilDone(id, key);
    await gateIdle();
  });
});
