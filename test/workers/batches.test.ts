import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/random/seeded";
import { loadInput } from "../../src/db/evaluations";
import { database } from "../../src/db/database";
import { finishEvaluation } from "../../src/evaluations/finish";
import { countRows, newKey, request, uniqueTag, until } from "./helpers";

const BIAS = 0.5;

/** One exam: three students answer every question; their qualities are fixed per student. */
function exam(questions: number, quality: Record<string, number>, tag: string) {
  return Array.from({ length: questions }, (_, k) => ({
    question: `Question ${k + 1}: explain a stack. [tag:${tag}]`,
    metadata: { questionId: `q${k + 1}` },
    answers: Object.entries(quality).map(([student, q]) => ({
      id: `${student}-${k + 1}`,
      examinee: student,
      text: `By ${student}: q=${q + (k % 2)}. LIFO.`,
    })),
  }));
}

async function waitForBatch(id: string, key: string, timeoutMs = 20_000) {
  const r = await until(
    `batch ${id} to end`,
    async () => {
      const r = await request("GET", `/v1/batches/${id}`, { key });
      return r.status !== 200 || r.json.status !== "running" ? r : null;
    },
    timeoutMs,
  );
  if (r.status !== 200) throw new Error(`GET batch ${id}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

describe("batches (exams)", () => {
  const quality = { ann: 8, bob: 3, cy: 5 };

  it("grades every question, reports progress, and sums each examinee's question scores", async () => {
    const key = await newKey("uni");
    const tag = uniqueTag("exam");
    const created = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { method: "individual", maxScore: 10 }, items: exam(4, quality, tag) },
    });
    expect(created.status).toBe(202);
    expect(created.json).toEqual({ id: expect.stringMatching(/^ba_/), status: "running", total: 4 });

    const batch = await waitForBatch(created.json.id, key);
    expect(batch.status).toBe("completed");
    expect(batch.progress).toEqual({ done: 4, total: 4, failed: 0, cancelled: 0 });
    expect(batch.evaluations).toHaveLength(4);

    // individual judging: each answer's score is its quality plus the judge's bias; questions 2 and 4 add 1
    const expected = (q: number) => 4 * (q + BIAS) + 2;
    expect(batch.examLevel).toEqual([
      { examinee: "ann", total: expected(8), questionsAnswered: 4 },
      { examinee: "cy", total: expected(5), questionsAnswered: 4 },
      { examinee: "bob", total: expected(3), questionsAnswered: 4 },
    ]);
    // the results are the questions in order, each an ordinary evaluation with its examinees
    const second = await request("GET", `/v1/evaluations/${batch.evaluations[1]}`, { key });
    expect(second.json.metadata).toEqual({ questionId: "q2" });
    expect(second.json.batchId).toBe(created.json.id);
    expect(second.json.answers.map((a: { examinee: string }) => a.examinee).sort()).toEqual(["ann", "bob", "cy"]);

    // an individual-judged batch has no games between examinees
    const none = await request("GET", `/v1/batches/${created.json.id}/ratings`, { key });
    expect(none.status).toBe(409);
  });

  it("rates the examinees from the knockout matches: every match is a game between two examinees", async () => {
    const key = await newKey("uni");
    const tag = uniqueTag("exam-ko");
    const created = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { method: "round-robin", debias: true }, items: exam(3, quality, tag) },
    });
    const batch = await waitForBatch(created.json.id, key);
    expect(batch.status).toBe("completed");

    const r = await request("GET", `/v1/batches/${created.json.id}/ratings?samples=50&seed=3`, { key });
    expect(r.status).toBe(200);
    expect(r.json.games).toBe(9); // 3 pairs x 3 questions
    expect(r.json.players.sort()).toEqual(["ann", "bob", "cy"]);
    for (const system of ["elo", "bradleyTerry", "glicko2", "trueskill"]) {
      expect(r.json.systems[system].players.map((p: { player: string }) => p.player)).toEqual(["ann", "cy", "bob"]);
      expect(r.json.systems[system].players[0].ci).not.toBeNull();
    }
    expect(r.json.transitivity.linearOrder).toBe(true);
    expect(r.json.bootstrap).toEqual({ samples: 50, confidence: 0.95, seed: 3 });
    expect((await request("GET", `/v1/batches/${created.json.id}/ratings?samples=-1`, { key })).status).toBe(400);
    // issue 23, item 15: numbers in a query are decimal ("0x10" was 16, "1e1" 10)
    for (const q of ["samples=0x10", "samples=1e1", "seed=0x3", "seed=%203"]) {
      const refused = await request("GET", `/v1/batches/${created.json.id}/ratings?${q}`, { key });
      expect(refused.status, q).toBe(400);
      expect(refused.json.errors[0].field, q).toBe(q.split("=")[0]);
    }
  });

  it("validates every item before creating anything, naming the item's field", async () => {
    const tenant = uniqueTag("uni");
    const key = await newKey(tenant);
    const before = await countRows("evaluations", tenant);
    const batchesBefore = await countRows("batches", tenant);
    const items = exam(5, quality, uniqueTag("bad"));
    items[3].answers[1] = { ...items[3].answers[1], id: "" };
    const r = await request("POST", "/v1/batches", { key, body: { items } });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect(r.json.errors).toEqual([{ field: "items[3].answers[1].id", reason: "must not be empty" }]);
    expect(await countRows("evaluations", tenant)).toBe(before);
    expect(await countRows("batches", tenant)).toBe(batchesBefore);

    const tooMany = await request("POST", "/v1/batches", { key, body: { items: Array.from({ length: 1001 }, () => items[0]) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.errors[0]).toEqual({ field: "items", reason: expect.stringMatching(/at most 1000 questions/) });

    // 100 KB of answers as the defaults of 100 items: 10 MB written out, past the 8 MiB a body may be
    const answersOf = Array.from({ length: 100 }, (_, i) => ({ id: `a${i}`, text: `w${i} `.repeat(250) }));
    const amplified = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { question: "Q", answers: answersOf }, items: Array.from({ length: 100 }, () => ({})) },
    });
    expect(amplified.status).toBe(400);
    expect(amplified.json.errors).toEqual([{ field: "defaults", reason: expect.stringMatching(/more than 8388608 bytes/) }]);
    expect(await countRows("evaluations", tenant)).toBe(before);
    const fits = await request("POST", "/v1/batches?dryRun=true", {
      key,
      body: { defaults: { question: "Q", answers: answersOf }, items: Array.from({ length: 50 }, () => ({})) },
    });
    expect(fits.status).toBe(200);
  });

  it("keeps tenants apart: another tenant's batch is a 404", async () => {
    const owner = await newKey("uni-a");
    const other = await newKey("uni-b");
    const created = await request("POST", "/v1/batches", {
      key: owner,
      body: { defaults: { method: "individual" }, items: exam(1, quality, uniqueTag("t")) },
    });
    expect((await request("GET", `/v1/batches/${created.json.id}`, { key: other })).status).toBe(404);
    expect((await request("GET", `/v1/batches/${created.json.id}/ratings`, { key: other })).status).toBe(404);
    expect((await request("GET", `/v1/batches/${created.json.id}`, { key: owner })).status).toBe(200);
    expect((await request("GET", `/v1/batches/${created.json.id}`)).status).toBe(401);
  });
});

describe("GET /v1/batches/:id: tags and 304", () => {
  it("answers 304 to the batch's tag until a teacher's grade changes its agreement", async () => {
    const key = await newKey(uniqueTag("exam-tag"));
    const tag = uniqueTag("exam-tag");
    const created = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { method: "individual", maxScore: 10 }, items: exam(2, { ann: 8, bob: 3 }, tag) },
    });
    expect(created.status).toBe(202);
    const id = created.json.id as string;
    const batch = await waitForBatch(id, key);
    const done = await request("GET", `/v1/batches/${id}`, { key });
    expect(done.status).toBe(200);
    expect(done.json).toEqual(batch);
    const etag = done.headers.get("etag")!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await request("GET", `/v1/batches/${id}`, { key })).headers.get("etag")).toBe(etag);

    const unchanged = await request("GET", `/v1/batches/${id}`, { key, headers: { "if-none-match": `W/"other", ${etag}` } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.json).toBe("");
    expect(unchanged.headers.get("etag")).toBe(etag);
    expect((await request("GET", `/v1/batches/${id}`, { key, headers: { "if-none-match": "*" } })).status).toBe(304);

    // agreement takes three grades: with fewer the batch reads the same, and so does its tag
    const grade = (question: number, answer: string, score: number) =>
      request("PUT", `/v1/evaluations/${batch.evaluations[question]}/answers/${answer}/grade`, { key, body: { score } });
    expect((await grade(0, "ann-1", 7)).status).toBe(200);
    expect((await request("GET", `/v1/batches/${id}`, { key, headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await grade(0, "bob-1", 3)).status).toBe(200);
    expect((await grade(1, "ann-2", 8)).status).toBe(200);
    const after = await request("GET", `/v1/batches/${id}`, { key, headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.json.agreement).not.toEqual(batch.agreement);
  });
});

describe("POST /v1/ratings", () => {
  it("rates games given directly, with every system, bootstrap intervals and the transitivity check", async () => {
    const key = await newKey("lab");
    const games = [
      ...Array.from({ length: 6 }, () => ({ a: "m1", b: "m2", outcome: 1 })),
      ...Array.from({ length: 6 }, () => ({ a: "m2", b: "m3", outcome: 1 })),
      ...Array.from({ length: 6 }, () => ({ a: "m1", b: "m3", outcome: 1 })),
      { a: "m3", b: "m1", outcome: 0.5 },
    ];
    const r = await request("POST", "/v1/ratings", { key, body: { games, bootstrap: { samples: 40, seed: 1 } } });
    expect(r.status).toBe(200);
    expect(r.json.games).toBe(19);
    for (const system of ["elo", "bradleyTerry", "glicko2", "trueskill"]) {
      expect(r.json.systems[system].players.map((p: { player: string; rank: number }) => [p.player, p.rank])).toEqual([
        ["m1", 1],
        ["m2", 2],
        ["m3", 3],
      ]);
    }
    expect(r.json.transitivity.linearOrder).toBe(true);
  });

  it("builds a benchmark tournament from per-instance outcomes (seeds/002: match size k, N rounds)", async () => {
    const key = await newKey("lab");
    const outcomes = { strong: [1, 1, 1, 1, 0, 1, 1, 1], middle: [1, 0, 1, 0, 1, 1, 0, 1], weak: [0, 0, 1, 0, 0, 0, 0, 1] };
    const r = await request("POST", "/v1/ratings", {
      key,
      body: { outcomes, matchSize: 4, rounds: 5, seed: 7, bootstrap: false, systems: ["elo", "bradleyTerry"] },
    });
    expect(r.status).toBe(200);
    expect(r.json.games).toBe(15); // 3 pairs x 5 rounds
    expect(Object.keys(r.json.systems)).toEqual(["elo", "bradleyTerry"]);
    expect(r.json.systems.bradleyTerry.players[0].player).toBe("strong");
    expect(r.json.systems.elo.players[0].ci).toBeNull();
  });

  it("says what is wrong with a bad body", async () => {
    const key = await newKey("lab");
    const both = await request("POST", "/v1/ratings", {
      key,
      body: { games: [{ a: "x", b: "y", outcome: 1 }], outcomes: { x: [1], y: [0] } },
    });
    expect(both.status).toBe(400);
    const noK = await request("POST", "/v1/ratings", { key, body: { outcomes: { x: [1], y: [0] } } });
    expect(noK.json.errors.map((e: { field: string }) => e.field)).toEqual(["matchSize", "rounds"]);
    const tooCostly = await request("POST", "/v1/ratings", {
      key,
      body: { games: Array.from({ length: 10_000 }, () => ({ a: "x", b: "y", outcome: 1 })), bootstrap: { samples: 101 } },
    });
    expect(tooCostly.status).toBe(400);
    expect(tooCostly.json.errors).toEqual([{ field: "bootstrap.samples", reason: expect.stringMatching(/use at most 100 samples/) }]);
    // the transitivity check's table is players x players: 8,000 took 17.6 s and 546 MB
    const crowd = await request("POST", "/v1/ratings", {
      key,
      body: { games: Array.from({ length: 501 }, (_, i) => ({ a: `p${i}`, b: `p${i + 1}`, outcome: 1 })), bootstrap: false },
    });
    expect(crowd.status).toBe(400);
    expect(crowd.json.errors).toEqual([{ field: "games", reason: "name 502 players; at most 500" }]);
    const badOutcome = await request("POST", "/v1/ratings", { key, body: { games: [{ a: "x", b: "x", outcome: 2 }] } });
    expect(badOutcome.json.errors.map((e: { field: string }) => e.field)).toEqual(["games[0].outcome"]);
  });
});

describe("ratings within a request's CPU", () => {
  it("gives 300 players only the bootstrap samples whose Bradley-Terry steps fit, by default, and refuses more when asked", async () => {
    const key = await newKey("lab");
    const random = seededRandom(9);
    const games = Array.from({ length: 500 }, (_, i) => {
      const a = i < 300 ? i : random.nextInt(300);
      const b = i < 300 ? (i + 1) % 300 : (a + 1 + random.nextInt(299)) % 300;
      return { a: `p${a}`, b: `p${b}`, outcome: i % 4 === 0 ? 0 : 1 };
    });
    const byDefault = await request("POST", "/v1/ratings", { key, body: { games, systems: ["bradleyTerry"] } });
    expect(byDefault.status).toBe(200);
    // a Newton step at 300 players is about 300,000 units; the samples share half of 100 million, 3 steps each
    expect(byDefault.json.bootstrap.samples).toBeGreaterThan(20);
    expect(byDefault.json.bootstrap.samples).toBeLessThan(100);
    expect(byDefault.json.systems.bradleyTerry.converged).toBe(true);
    const asked = await request("POST", "/v1/ratings", { key, body: { games, systems: ["bradleyTerry"], bootstrap: { samples: 2_000 } } });
    expect(asked.status).toBe(400);
    expect(asked.json.errors).toEqual([
      { field: "bootstrap.samples", reason: expect.stringMatching(/^with 300 players .*: use at most \d+ samples \(or 0 for none\)$/) },
    ]);
    const eloOnly = await request("POST", "/v1/ratings", { key, body: { games, systems: ["elo"], bootstrap: { samples: 2_000 } } });
    expect(eloOnly.status).toBe(200);
  });

  it("builds 100,000 one-instance matches from outcomes at the cost of their draws, and refuses a schedule that looks at too many instances", async () => {
    const key = await newKey("lab");
    const outcomes = { a: Array.from({ length: 100_000 }, (_, i) => i % 3), b: Array.from({ length: 100_000 }, (_, i) => i % 2) };
    const many = await request("POST", "/v1/ratings", {
      key,
      body: { outcomes, matchSize: 1, rounds: 100_000, bootstrap: false, systems: ["elo"] },
    });
    expect(many.status).toBe(200);
    expect(many.json.games).toBe(100_000);
    const wide = await request("POST", "/v1/ratings", { key, body: { outcomes, matchSize: 100_000, rounds: 10_000, bootstrap: false } });
    expect(wide.status).toBe(400);
    expect(wide.json.errors).toEqual([
      { field: "matchSize", reason: expect.stringMatching(/look at 1000100000 instances; at most 10000000/) },
    ]);
  });

  it("rates a line of 320 players, which Bradley-Terry's MM never settles, within the request's work, and says it did not converge", async () => {
    const key = await newKey("lab");
    const line = Array.from({ length: 319 }, (_, i) => [1, 0, 1].map((outcome) => ({ a: `p${i}`, b: `p${i + 1}`, outcome }))).flat();
    const r = await request("POST", "/v1/ratings", { key, body: { games: line, bootstrap: { samples: 3, seed: 1 } } });
    expect(r.status).toBe(200);
    expect(r.json.systems.bradleyTerry.converged).toBe(false);
    expect(r.json.systems.glicko2.players).toHaveLength(320);
    const settled = await request("POST", "/v1/ratings", { key, body: { games: line.slice(0, 30), bootstrap: false } });
    expect(settled.json.systems.bradleyTerry.converged).toBe(true);
  });
});

describe("a batch's progress, counted as its questions end", () => {
  it("counts each question once, however often its end is written (an alarm retried after the write), and builds the report once it is done", async () => {
    const key = await newKey("uni");
    const tag = uniqueTag("count");
    const created = await request("POST", "/v1/batches", {
      key,
      body: { defaults: { method: "individual", maxScore: 10 }, items: exam(3, { ann: 8, bob: 3 }, tag) },
    });
    const batch = await waitForBatch(created.json.id, key);
    expect(batch.progress).toEqual({ done: 3, total: 3, failed: 0, cancelled: 0 });

    // the end of its first question written again, as a retried alarm does: the counters do not move
    const db = database(env.DB);
    const input = (await loadInput(db, batch.evaluations[0]))!;
    const stored = await request("GET", `/v1/evaluations/${input.id}`, { key });
    const outcome = { champion: stored.json.champion, answers: stored.json.answers, matches: stored.json.matches };
    await finishEvaluation(env, input, { status: "completed", error: null, outcome, usage: stored.json.usage, now: Date.now() });
    await finishEvaluation(env, input, { status: "completed", error: null, outcome, usage: stored.json.usage, now: Date.now() });
    const row = await env.DB.prepare("SELECT completed, failed, cancelled FROM batches WHERE id = ?").bind(batch.id).first();
    expect(row).toEqual({ completed: 3, failed: 0, cancelled: 0 });
    expect((await request("GET", `/v1/batches/${batch.id}`, { key })).json.progress).toEqual({
      done: 3,
      total: 3,
      failed: 0,
      cancelled: 0,
    });
  });
});
