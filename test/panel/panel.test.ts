import { afterEach, describe, expect, inject, it } from "vitest";
import { panelJudge } from "../../src/core/panel";
import { pearson } from "../../src/metrics/correlation";
import type { JudgeLogEntry } from "../support/judge-server";
import { answers, newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "../workers/helpers";

// Issue 30 item 3, a panel of judges on a pool of several models (vitest.config.ts, "panel"): judge-a,
// judge-b (a stronger position bias) and judge-c (grades in reverse), each on its own endpoint.

const ports = inject("panelPorts");
type Judge = "a" | "b" | "c";
const URL_OF = { a: `http://127.0.0.1:${ports.a}/v1`, b: `http://127.0.0.1:${ports.b}/v1`, c: `http://127.0.0.1:${ports.c}/v1` };
const control = (what: "stop" | "start", judge: Judge) =>
  fetch(`http://127.0.0.1:${ports.control}/${what}?judge=${judge}`, { method: "POST" }).then((r) => r.text());
const log = (judge: Judge, tag: string): Promise<JudgeLogEntry[]> =>
  fetch(`http://127.0.0.1:${ports[judge]}/log?tag=${tag}`).then((r) => r.json());
const circuits = async (key: string) =>
  (await request("GET", "/v1/judges", { key })).json.endpoints as { url: string; circuit: { state: string } }[];

interface Vote {
  judge: string;
  scores?: number[];
  absent?: string;
  model?: string | null;
}
interface Call {
  order: string[];
  scores: number[];
  judge?: string;
  model?: string;
  votes?: Vote[];
}
interface Match {
  a: string;
  b: string | null;
  calls: Call[];
}

describe("a panel of judges on a pool of several models", () => {
  let key = "";
  afterEach(async () => {
    for (const j of ["a", "b", "c"] as const) await control("start", j);
    await until("every circuit closed", async () => (await circuits(key)).every((e) => e.circuit.state === "closed"), 20_000);
  });

  it("routes each call to an endpoint that serves its model: a plain evaluation to JUDGE_MODEL's, judge.model to its own", async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("plain");
    const plain = await waitUntilDone(
      await postEvaluation(key, { question: `Q? [tag:${tag}]`, maxScore: 10, answers: answers([7, 5, 3]) }),
      key,
    );
    expect(plain.status).toBe("completed");
    expect((await log("a", tag)).length).toBe(plain.usage.judgeCalls);
    expect((await log("b", tag)).length + (await log("c", tag)).length).toBe(0);
    const other = uniqueTag("model-c");
    const named = await waitUntilDone(
      await postEvaluation(key, { question: `Q? [tag:${other}]`, maxScore: 10, answers: answers([7, 5, 3]), judge: { model: "judge-c" } }),
      key,
    );
    expect(named.status).toBe("completed");
    expect((await log("c", other)).length).toBe(named.usage.judgeCalls);
    expect((await log("a", other)).length + (await log("b", other)).length).toBe(0);
    const view = (await request("GET", "/v1/judges", { key })).json;
    expect(view.models).toEqual(["judge-a", "judge-b", "judge-c"]);
    expect(view.endpoints.map((e: { models: string[] }) => e.models)).toEqual([["judge-a"], ["judge-b"], ["judge-c"]]);
  });

  it("cycle: sends each match to the next judge in turn, at that judge's endpoint only, and reports each judge against the panel", async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("cycle");
    const panel = ["judge-a", "judge-b", "judge-c"];
    const result = await waitUntilDone(
      await postEvaluation(key, {
        question: `What is a stack? [tag:${tag}]`,
        maxScore: 10,
        seed: 3,
        answers: answers([9, 8, 7, 6, 5, 4, 3, 2], "p"),
        judge: { panel, panelMode: "cycle" },
      }),
      key,
    );
    expect(result.status).toBe("completed");
    expect(result.judge).toMatchObject({ panel, panelMode: "cycle" });
    const matches: Match[] = result.matches;
    for (const [index, m] of matches.entries())
      for (const c of m.calls) expect([c.judge, c.model]).toEqual([panelJudge(panel, index), panelJudge(panel, index)]);
    // each judge's server saw exactly its matches' calls: one judge's cost in all
    for (const [j, model] of [
      ["a", "judge-a"],
      ["b", "judge-b"],
      ["c", "judge-c"],
    ] as const) {
      const seen = await log(j, tag);
      expect(seen.every((e) => e.model === model)).toBe(true);
      expect(seen.length).toBe(2 * matches.filter((_, i) => panelJudge(panel, i) === model).length);
    }
    expect(result.panel.mode).toBe("cycle");
    for (const j of result.panel.judges) {
      expect(j.judgeDiagnostics.ordersDisagree.of).toBe(j.matches);
      expect(j.meanAbsDiff).toBeGreaterThanOrEqual(0);
    }
  });

  it("all: asks every judge each call, averages their scores, records each vote, and reports the odd judge out", async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("all");
    const panel = ["judge-a", "judge-b", "judge-c"];
    const dry = await request("POST", "/v1/evaluations?dryRun=true", {
      key,
      body: { question: "Q?", maxScore: 10, answers: answers([9, 7, 5, 3, 1, 8]), judge: { panel, panelMode: "all" } },
    });
    expect(dry.status).toBe(200);
    expect(dry.json.judgeRequests).toBe(3 * dry.json.judgeCalls);
    const result = await waitUntilDone(
      await postEvaluation(key, {
        question: `What is a queue? [tag:${tag}]`,
        maxScore: 10,
        answers: answers([9, 7, 5, 3, 1, 8], "q"),
        judge: { panel, panelMode: "all" },
      }),
      key,
    );
    expect(result.status).toBe("completed");
    expect(result.judge).toMatchObject({ panel, panelMode: "all" });
    const calls: Call[] = (result.matches as Match[]).flatMap((m) => m.calls);
    expect(calls.length).toBe(dry.json.judgeCalls);
    // every judge's server was asked every call, in its own model: the cost times the panel's size
    for (const [j, model] of [
      ["a", "judge-a"],
      ["b", "judge-b"],
      ["c", "judge-c"],
    ] as const) {
      const seen = await log(j, tag);
      expect(seen.length).toBe(calls.length);
      expect(seen.every((e) => e.model === model)).toBe(true);
    }
    for (const c of calls) {
      expect(c.votes!.map((v) => [v.judge, v.model])).toEqual(panel.map((m) => [m, m]));
      for (const i of [0, 1]) expect(c.scores[i]).toBeCloseTo(c.votes!.reduce((s, v) => s + v.scores![i], 0) / 3, 9);
    }
    expect(result.reproducibility.models).toEqual(expect.arrayContaining(panel));
    // the agreement re-derived from the recorded votes: each judge's mean score of an answer against the panel's
    const panelScore = new Map((result.answers as { id: string; score: number }[]).map((a) => [a.id, a.score]));
    for (const [i, model] of panel.entries()) {
      const given = new Map<string, number[]>();
      for (const m of result.matches as Match[]) {
        const mine = m.calls.map((c) => ({ order: c.order, scores: c.votes![i].scores! }));
        for (const id of [m.a, m.b!]) {
          const xs = mine.map((c) => c.scores[c.order.indexOf(id)]);
          given.set(id, [...(given.get(id) ?? []), xs.reduce((s, x) => s + x, 0) / xs.length]);
        }
      }
      const ids = [...given.keys()];
      const judgeMeans = ids.map((id) => given.get(id)!.reduce((s, x) => s + x, 0) / given.get(id)!.length);
      const report = result.panel.judges[i];
      expect(report.model).toBe(model);
      expect(report.absent).toBe(0);
      expect(report.pearson).toBeCloseTo(
        pearson(
          judgeMeans,
          ids.map((id) => panelScore.get(id)!),
        )!,
        2,
      );
      expect(report.judgeDiagnostics.firstPositionWins.of).toBeGreaterThan(0);
    }
    // judge-c grades in reverse: it alone disagrees with the panel
    expect(result.panel.judges.map((j: { pearson: number }) => Math.sign(j.pearson))).toEqual([1, 1, -1]);
  });

  it("cycle: a judge that is down is skipped, and the next judge in turn takes its matches", async () => {
    key = await newKey(uniqueTag("panel"));
    await control("stop", "b");
    const tag = uniqueTag("cycle-down");
    const panel = ["judge-a", "judge-b", "judge-c"];
    const result = await waitUntilDone(
      await postEvaluation(key, {
        question: `What is a heap? [tag:${tag}]`,
        maxScore: 10,
        answers: answers([9, 8, 7, 6, 5, 4, 3, 2], "h"),
        judge: { panel, panelMode: "cycle" },
      }),
      key,
    );
    expect(result.status).toBe("completed");
    const matches: Match[] = result.matches;
    for (const [index, m] of matches.entries()) {
      const own = panelJudge(panel, index);
      for (const c of m.calls) expect(c.judge).toBe(own === "judge-b" ? "judge-c" : own);
    }
    expect(matches.some((_, i) => panelJudge(panel, i) === "judge-b")).toBe(true);
    expect(result.panel.judges.find((j: { model: string }) => j.model === "judge-b").matches).toBe(0);
    expect((await circuits(key)).find((e) => e.url === URL_OF.b)!.circuit.state).not.toBe("closed");
  });

  it("cycle: a judge that goes down mid-match moves the whole match, its answered order asked again, so both orders are one judge's", async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("cycle-mid");
    const panel = ["judge-a", "judge-b", "judge-c"];
    // judge-b answers the first order of its match and holds the second until it is taken down;
    // the others answer everything
    for (const j of ["a", "c"] as const) await fetch(`http://127.0.0.1:${ports[j]}/release?tag=${tag}`, { method: "POST" });
    const id = await postEvaluation(key, {
      question: `What is a list? [tag:${tag}] [hold-after:1]`,
      maxScore: 10,
      seed: 5,
      answers: answers([9, 7, 5, 3], "m"),
      judge: { panel, panelMode: "cycle" },
    });
    const bOf = (matches: Match[]) => matches.find((m) => m.calls.some((c) => c.judge === "judge-b"));
    // judge-b's answer is recorded, its match's other order held at judge-b: then judge-b goes down
    const started = await until("judge-b's first order recorded, its second held", async () => {
      const view = (await request("GET", `/v1/evaluations/${id}`, { key })).json;
      const held = (await log("b", tag)).map((e) => e.outcome).join(",") === "ok,held";
      return held && bOf(view.matches ?? []);
    });
    await control("stop", "b");
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const matches: Match[] = result.matches;
    // every debiased match's calls name one judge, the one its calls were asked of
    for (const m of matches) {
      expect(m.calls.length).toBe(2);
      expect(new Set(m.calls.map((c) => c.judge)).size, JSON.stringify(m.calls.map((c) => c.judge))).toBe(1);
      for (const c of m.calls) expect(c.model).toBe(c.judge);
    }
    // judge-b's match moved whole to judge-c: the order judge-b had answered was asked again of judge-c
    const moved = matches.find((m) => m.a === started.a && m.b === started.b)!;
    expect(moved.calls.map((c) => c.judge)).toEqual(["judge-c", "judge-c"]);
    // each server logs the qualities it saw (judge-c's in reverse, 10 - q)
    const pair = (e: JudgeLogEntry) => [...e.qualities].sort().join(",");
    const movedQualities = [9, 7, 5, 3].filter((_, i) => [moved.a, moved.b].includes(`m${i + 1}`));
    const byB = (await log("b", tag)).filter((e) => e.outcome === "ok");
    expect(byB.map(pair)).toEqual([[...movedQualities].sort().join(",")]);
    const reversed = movedQualities
      .map((q) => 10 - q)
      .sort()
      .join(",");
    expect((await log("c", tag)).filter((e) => e.outcome === "ok" && pair(e) === reversed).length).toBe(2);
    expect(result.panel.judges.find((j: { model: string }) => j.model === "judge-b").matches).toBe(0);
    // judgeCalls counts the calls recorded: judge-b's dropped answer is not among them
    expect(result.usage.judgeCalls).toBe(matches.length * 2);
  });

  it('cycle, debias "adaptive": a match whose judge goes down before its second order starts again, whole, with the next judge', async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("cycle-adaptive");
    // judge-c first, so the one match (two answers) is its; judge-a next in turn
    const panel = ["judge-c", "judge-a", "judge-b"];
    for (const j of ["a", "b"] as const) await fetch(`http://127.0.0.1:${ports[j]}/release?tag=${tag}`, { method: "POST" });
    // two answers of one quality: a judge with judge-c's or judge-a's position bias (0.5) scores them
    // within adaptive debiasing's margin (a tenth of the scale), so its first order asks for the
    // second; judge-c holds that one
    const id = await postEvaluation(key, {
      question: `What is a set? [tag:${tag}] [hold-after:1]`,
      maxScore: 10,
      debias: "adaptive",
      answers: answers([5, 5], "x"),
      judge: { panel, panelMode: "cycle" },
    });
    await until("judge-c's first order recorded, its second held", async () => {
      const view = (await request("GET", `/v1/evaluations/${id}`, { key })).json;
      const held = (await log("c", tag)).map((e) => e.outcome).join(",") === "ok,held";
      return held && (view.matches ?? []).some((m: Match) => m.calls.some((c) => c.judge === "judge-c"));
    });
    await control("stop", "c");
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    // judge-c's answer was dropped: the match started again with judge-a, unsure too, so both orders are judge-a's
    const [match] = result.matches as Match[];
    expect(match.calls.map((c) => [c.judge, c.model])).toEqual([
      ["judge-a", "judge-a"],
      ["judge-a", "judge-a"],
    ]);
    expect(result.usage.judgeCalls).toBe(2);
    expect((await log("c", tag)).filter((e) => e.outcome === "ok").length).toBe(1);
    expect((await log("a", tag)).filter((e) => e.outcome === "ok").length).toBeGreaterThanOrEqual(2);
  });

  it("all: a judge that is down is named on every call, and the scores average the judges that answered", async () => {
    key = await newKey(uniqueTag("panel"));
    await control("stop", "b");
    const tag = uniqueTag("all-down");
    const panel = ["judge-a", "judge-b", "judge-c"];
    const result = await waitUntilDone(
      await postEvaluation(key, {
        question: `What is a tree? [tag:${tag}]`,
        maxScore: 10,
        answers: answers([9, 7, 5, 3], "t"),
        judge: { panel, panelMode: "all" },
      }),
      key,
    );
    expect(result.status).toBe("completed");
    const calls: Call[] = (result.matches as Match[]).flatMap((m) => m.calls);
    for (const c of calls) {
      const [a, b, cc] = c.votes!;
      expect(b.judge).toBe("judge-b");
      expect(b.absent).toBeTruthy();
      expect(b.scores).toBeUndefined();
      for (const i of [0, 1]) expect(c.scores[i]).toBeCloseTo((a.scores![i] + cc.scores![i]) / 2, 9);
    }
    // once the gate knows it is down, it is skipped at once rather than waited for
    expect(calls.some((c) => c.votes![1].absent === "down")).toBe(true);
    const b = result.panel.judges.find((j: { model: string }) => j.model === "judge-b");
    expect(b).toMatchObject({ absent: calls.length, matches: 0, answers: 0, pearson: null });
  });

  it("sends a panel's feedback calls to its first judge's endpoint", async () => {
    key = await newKey(uniqueTag("panel"));
    const tag = uniqueTag("feedback");
    const result = await waitUntilDone(
      await postEvaluation(key, {
        question: `What is a graph? [tag:${tag}]`,
        maxScore: 10,
        answers: answers([8, 5, 2], "f"),
        feedback: "judge",
        judge: { panel: ["judge-b", "judge-c"], panelMode: "all" },
      }),
      key,
    );
    expect(result.status).toBe("completed");
    expect((await log("b", tag)).filter((e) => e.feedback).length).toBe(3);
    expect((await log("c", tag)).filter((e) => e.feedback).length).toBe(0);
    expect((await log("a", tag)).length).toBe(0);
  });
});
