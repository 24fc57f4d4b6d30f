import { describe, expect, it } from "vitest";
import { countRows, judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

const question = "What is a stack?";
const pair = (a: string, b: string) => [
  { id: a, text: "LIFO q=5" },
  { id: b, text: "FIFO q=3" },
];

async function refusedAt(key: string, body: unknown, field: string, reason: RegExp, path = "/v1/evaluations") {
  const r = await request("POST", path, { key, body });
  expect(r.status, JSON.stringify(r.json)).toBe(400);
  expect(r.json.errors).toContainEqual({ field, reason: expect.stringMatching(reason) });
}

describe("answer ids that look the same are the same id", () => {
  it('refuses lookalike ids (issue 11: "é" and "e\\u0301", "ab" and "a\\u200bb", "a\\u0000" and "a", a right-to-left override were all accepted as different)', async () => {
    const tenant = uniqueTag("school");
    const key = await newKey(tenant);
    await refusedAt(key, { question, answers: pair("é", "e\u0301") }, "answers[1].id", /^duplicate id "é" \(also answers\[0\]\)/);
    await refusedAt(key, { question, answers: pair("Å", "A\u030a") }, "answers[1].id", /^duplicate id/);
    await refusedAt(key, { question, answers: pair("ab", "a\u200bb") }, "answers[1].id", /U\+200B at character 2/);
    await refusedAt(key, { question, answers: pair("a", "a\u0000") }, "answers[1].id", /control or format characters \(U\+0000/);
    await refusedAt(key, { question, answers: pair("\u202Eabc", "cba") }, "answers[0].id", /U\+202E/);
    await refusedAt(key, { question, answers: pair("a\tb", "ab") }, "answers[0].id", /U\+0009/);
    await refusedAt(
      key,
      {
        question,
        answers: [
          { id: "x", text: "q=1", examinee: "model\u200d" },
          { id: "y", text: "q=2" },
        ],
      },
      "answers[0].examinee",
      /U\+200D/,
    );
    await refusedAt(
      key,
      { items: [{ question, answers: pair("é", "e\u0301") }] },
      "items[0].answers[1].id",
      /^duplicate id/,
      "/v1/batches",
    );
    expect(await countRows("evaluations", tenant)).toBe(0);
    expect(await countRows("batches", tenant)).toBe(0);
  });

  it('refuses "." and "..", whose grade routes no URL can reach (dot segments are removed before routing)', async () => {
    const tenant = uniqueTag("school");
    const key = await newKey(tenant);
    await refusedAt(key, { question, answers: pair(".", "b") }, "answers[0].id", /must not be "\." or "\.\."/);
    await refusedAt(key, { question, answers: pair("a", "..") }, "answers[1].id", /must not be "\." or "\.\."/);
    await refusedAt(key, { items: [{ question, answers: pair("..", "b") }] }, "items[0].answers[0].id", /a URL drops them/, "/v1/batches");
    expect(await countRows("evaluations", tenant)).toBe(0);
    expect(await countRows("batches", tenant)).toBe(0);
  });

  it("keeps an id in NFC and the answer's text exactly as written", async () => {
    const key = await newKey("school");
    const decomposed = "Jose\u0301: e\u0301 stays decomposed q=5";
    const tag = uniqueTag("nfc");
    const id = await postEvaluation(key, {
      question: `${question} [tag:${tag}]`,
      answers: [
        { id: "Jose\u0301", text: decomposed, examinee: "Rene\u0301" },
        { id: "ana", text: "FIFO q=3" },
      ],
    });
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("completed");
    const jose = done.answers.find((a: { id: string }) => a.id === "José");
    expect(jose).toMatchObject({ id: "José", examinee: "René" });
    expect(done.champion).toBe("José");
    // the text is the examinee's work: it reaches the judge as written, not normalised
    const prompts = (await judgeLog(tag)).map((e) => e.prompt);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      expect(prompt).toContain(decomposed);
      expect(prompt).not.toContain(decomposed.normalize("NFC"));
    }
  });

  it("treats model-tournament players the same way: lookalike names are one player", async () => {
    const key = await newKey("school");
    await refusedAt(key, { games: [{ a: "modèle", b: "mode\u0300le", outcome: 1 }] }, "games[0].b", /cannot play itself/, "/v1/ratings");
    await refusedAt(key, { games: [{ a: "m\u200b1", b: "m1", outcome: 1 }] }, "games[0].a", /U\+200B/, "/v1/ratings");
    await refusedAt(
      key,
      { outcomes: { é: [1, 0], "e\u0301": [0, 1] }, matchSize: 1, rounds: 1 },
      "outcomes.e\u0301",
      /same id as the key "é"/,
      "/v1/ratings",
    );
    await refusedAt(
      key,
      { outcomes: { "m\u00001": [1], m2: [0] }, matchSize: 1, rounds: 1 },
      "outcomes.m\u00001",
      /U\+0000/,
      "/v1/ratings",
    );
    const rated = await request("POST", "/v1/ratings", {
      key,
      body: {
        games: [
          { a: "mode\u0300le", b: "base", outcome: 1 },
          { a: "modèle", b: "base", outcome: 0.5 },
        ],
        bootstrap: false,
      },
    });
    expect(rated.status).toBe(200);
    expect(rated.json.players).toEqual(["modèle", "base"]);
  });
});
