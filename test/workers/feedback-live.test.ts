// Feedback for the student while it is being written: a restart mid-way, and the live event stream.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { tournamentStub } from "../../src/platform/stubs";
import { evaluationEvents } from "../../src/contract/events";
import {
  judgeLog,
  newKey,
  postEvaluation,
  request,
  type SseEvent,
  sseReader,
  uniqueTag,
  until,
  waitUntilDone,
  releaseJudge,
} from "./helpers";

interface Answer {
  id: string;
  score: number;
  text: string;
  feedback?: { text: string; from: "judge" | "teacher"; editedAt: string } | null;
  feedbackError?: string;
}

const feedbackPath = (id: string, answerId: string) => `/v1/evaluations/${id}/answers/${encodeURIComponent(answerId)}/feedback`;

/** Kills the object as a restart would (see resume.test.ts for why the reason reads so). */
async function crash(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.abort("Instance dispose (a simulated crash)")).catch(
    () => {},
  );
}

/** Six students, each with a word no other answer has. */
const WORDS = ["aardvark", "bumblebee", "cormorant", "dromedary", "echidna", "flamingo"];
const students = (qualities: number[]) =>
  qualities.map((q, i) => ({ id: `s${i + 1}`, text: `q=${q} The stack is LIFO, says the ${WORDS[i]}.` }));

describe("a restart during the feedback calls", () => {
  it("asks no feedback twice: those recorded stay, the held ones are asked again", async () => {
    const key = await newKey("feedback-restart");
    const tag = uniqueTag("feedback-restart");
    const posted = students([2, 4, 6, 8]);
    // pointwise: 4 grading calls, then 4 feedback calls; the judge answers 2 of these and holds the rest
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${tag}] [hold-after:6]`,
      method: "individual",
      debias: false,
      answers: posted,
      feedback: "judge",
    });
    let stub = tournamentStub(env, id);
    await until("2 feedback calls answered and 2 held", async () => (await judgeLog(tag)).filter((e) => e.feedback).length === 4);
    await until("2 feedback recorded", () =>
      runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => {
        const n = state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM feedback").one().n;
        return n === 2 ? n : null;
      }),
    );
    // still running: the evaluation completes only once its feedback is written
    const running = await request("GET", `/v1/evaluations/${id}`, { key });
    expect(running.json.status).toBe("running");
    expect(running.json.answers.filter((a: Answer) => a.feedback).length).toBe(2);
    expect((await request("PUT", feedbackPath(id, "s1"), { key, body: { text: "Too early." } })).status).toBe(409);

    await crash(stub);
    stub = tournamentStub(env, id);
    await releaseJudge(tag);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.usage.feedbackCalls).toBe(4);

    const log = await judgeLog(tag);
    for (const a of posted) {
      const answered = log.filter((e) => e.feedback && e.outcome === "ok" && e.prompt.includes(a.text));
      expect(answered).toHaveLength(1);
    }
    expect(log.filter((e) => !e.feedback && e.outcome === "ok")).toHaveLength(4);
    for (const a of result.answers as Answer[]) expect(a.feedback?.from).toBe("judge");
  });
});

describe("the event stream of an evaluation with feedback", () => {
  it("sends each student's feedback as it is written, and counts the feedback calls, in the contract's shapes", async () => {
    const key = await newKey("feedback-live");
    const tag = uniqueTag("feedback-live");
    // 3 grading calls (pointwise), then 3 feedback calls: the judge answers 1 of them and holds the rest
    const id = await postEvaluation(key, {
      question: `Explain a stack. [tag:${tag}] [hold-after:4]`,
      method: "individual",
      debias: false,
      answers: students([2, 5, 8, 6]).slice(0, 3),
      feedback: "judge",
    });
    // 3 grading calls and 1 feedback answered, 2 feedback calls held: one feedback is written before the stream opens
    await until("one feedback written", async () => {
      const r = await request("GET", `/v1/evaluations/${id}`, { key });
      return r.json.answers.filter((a: Answer) => a.feedback).length === 1;
    });
    const response = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request(`http://service.test/v1/evaluations/${id}/events`, { headers: { authorization: `Bearer ${key}` } }),
    );
    const next = sseReader(response);
    const events: SseEvent[] = [];
    for (let e = await next(); e; e = await next()) {
      events.push(e);
      if (e.event === "snapshot") await releaseJudge(tag);
    }
    for (const e of events)
      expect(evaluationEvents[e.event as keyof typeof evaluationEvents].safeParse(e.data).success, e.event).toBe(true);
    const snapshot = events[0];
    expect(snapshot.event).toBe("snapshot");
    expect(snapshot.data.feedback).toEqual({ done: 1, total: 3 });
    // the one written before the viewer came, right after the snapshot
    expect(events[1].event).toBe("feedback");
    const feedback = events.filter((e) => e.event === "feedback");
    expect(feedback.map((e) => e.data.answerId).sort()).toEqual(["s1", "s2", "s3"]);
    for (const e of feedback)
      expect(e.data.feedback).toMatchObject({ from: "judge", text: expect.stringMatching(/^Your answer is at quality/) });
    const last = events.filter((e) => e.event === "progress").at(-1)!;
    expect(last.data.feedback).toEqual({ done: 3, total: 3 });
    expect(last.data.usage.feedbackCalls).toBe(3);
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "completed", error: null } });
  });
});
