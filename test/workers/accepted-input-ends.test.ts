import fc from "fast-check";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { judgeGateStub } from "../../src/platform/stubs";
import { trickyText } from "../support/tricky-text";
import { newKey, request, until, waitUntilDone } from "./helpers";

const FINAL = ["completed", "failed", "cancelled"];
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/u;

// tricky text in a field now and then, so that bodies past the door are common too
const text = (parts: number) =>
  fc.oneof({ arbitrary: trickyText(parts), weight: 1 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 3 });
// what the test judge grades by: a quality marker in every answer, so most evaluations complete
const answer = (i: number) => fc.record({ id: text(3).map((id) => `${id}${i}`), text: text(4).map((t) => `${t} q=${i + 1}`) });
const evaluation = fc.record(
  {
    question: text(4).map((q) => `${q}?`),
    answers: fc.integer({ min: 2, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => answer(i)))),
    method: fc.constantFrom("knockout", "individual", "pairwise", "round-robin"),
    debias: fc.boolean(),
    reference: text(3),
    metadata: fc.dictionary(text(2), text(2), { maxKeys: 2 }),
  },
  { requiredKeys: ["question", "answers"] },
);
type Post = { path: string; body: unknown };
const post: fc.Arbitrary<Post> = fc.oneof(
  { arbitrary: evaluation.map((body) => ({ path: "/v1/evaluations", body })), weight: 3 },
  { arbitrary: fc.tuple(evaluation, evaluation).map(([a, b]) => ({ path: "/v1/batches", body: { items: [a, b] } })), weight: 1 },
);

/**
 * Tried first: the reproduction (refused at the door now; accepted, it held a running place
 * forever), and bodies the API takes that hold every kind of tricky text it keeps, so some surely run.
 */
const examples: Post[] = [
  {
    path: "/v1/evaluations",
    body: {
      question: "q",
      answers: [
        { id: "\ud800", text: "x q=1" },
        { id: "\ud801", text: "y q=2" },
      ],
    },
  },
  {
    path: "/v1/evaluations",
    body: {
      question: "Qu'est-ce qu'une pile ? 📚 \u0000\u200b\u202e",
      reference: "LIFO\u0007",
      answers: [
        { id: "e\u0301", text: "e\u0301 \ud83d\ude00 \u202e q=5" },
        { id: "A\u030a", text: "\u0000 q=3" },
      ],
      metadata: { é: "e\u0301", "e\u0301": "\u200b" },
    },
  },
  {
    path: "/v1/batches",
    body: {
      items: [
        {
          question: "q",
          answers: [
            { id: "\u212b", text: "q=2" },
            { id: "x", text: "q=1" },
          ],
          method: "round-robin",
        },
      ],
    },
  },
];

describe("any input the API accepts ends, and gives its running place back", () => {
  it("reaches completed, failed or cancelled with the judge up, and the gate's running count returns to 0 (issue 11: an accepted evaluation could hold a running place forever)", {
    timeout: 120_000,
  }, async () => {
    const key = await newKey("property");
    let ended = 0;
    await fc.assert(
      fc.asyncProperty(post, async ({ path, body }) => {
        const r = await request("POST", path, { key, body });
        expect(r.status, JSON.stringify(r.json)).toBeOneOf([202, 400]);
        if (r.status === 400) {
          // refused at the door: with the field named, and nothing created
          expect(r.json.errors.length).toBeGreaterThan(0);
          return;
        }
        const ids: string[] =
          path === "/v1/batches" ? (await request("GET", `/v1/batches/${r.json.id}`, { key })).json.evaluations : [r.json.id];
        for (const id of ids) {
          const done = await waitUntilDone(id, key, 20_000);
          expect(FINAL).toContain(done.status);
          // the ids kept are the ones a reader can tell apart
          for (const a of done.answers as { id: string }[]) {
            expect(a.id).toBe(a.id.normalize("NFC"));
            expect(a.id).not.toMatch(INVISIBLE);
          }
          ended++;
        }
        await until("the evaluation's running place to be given back", async () => {
          const a = await judgeGateStub(env).admission();
          return a.running === 0 && a.queued === 0;
        });
      }),
      { numRuns: 12, examples: examples.map((e): [Post] => [e]) },
    );
    expect(ended).toBeGreaterThanOrEqual(2);
  });
});
