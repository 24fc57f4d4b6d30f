import { describe, expect, it } from "vitest";
import { panelJudge } from "../../src/core/panel";
import { answers, gateIdle, judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// Issue 30 item 3, `judge.panel` with `panelMode: "cycle"`: each match to the next judge of the panel
// in turn. The test judge answers any model asked for and names it in its reply.

type Match = { calls: { model?: string }[] };

describe("a panel of judges, in cycle", () => {
  it("sends each match to the next judge in turn, records it, and reports each judge against the panel", async () => {
    const key = await newKey("panel-cycle");
    const tag = uniqueTag("panel-cycle");
    const panel = ["judge-a", "judge-b", "judge-c"];
    const id = await postEvaluation(key, {
      question: `What is a stack? [tag:${tag}]`,
      maxScore: 10,
      seed: 3,
      debias: true,
      answers: answers([9, 8, 7, 6, 5, 4, 3, 2], "p"),
      judge: { panel, panelMode: "cycle" },
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.judge).toMatchObject({ panel, panelMode: "cycle" });
    const matches: Match[] = result.matches;
    for (const [index, m] of matches.entries()) for (const c of m.calls) expect(c.model).toBe(panelJudge(panel, index));
    // the judge was asked as many calls of each member as the cycle gives it: one judge's cost in all
    const log = await judgeLog(tag);
    expect(log.length).toBe(2 * matches.length);
    for (const model of panel)
      expect(log.filter((e) => e.model === model).length).toBe(2 * matches.filter((_, i) => panelJudge(panel, i) === model).length);
    expect(result.reproducibility.models).toEqual(panel);
    expect(result.panel.mode).toBe("cycle");
    expect(result.panel.judges.map((j: { model: string; matches: number }) => [j.model, j.matches])).toEqual(
      panel.map((model) => [model, matches.filter((_, i) => panelJudge(panel, i) === model).length]),
    );
    // the test judge grades alike whatever the model: every judge that scored three answers agrees
    for (const j of result.panel.judges) {
      if (j.answers >= 3) expect(j.pearson).toBeGreaterThan(0.9);
      expect(j.judgeDiagnostics.ordersDisagree.of).toBe(j.matches);
    }
  });

  it("takes a panel of one as a plain judge", async () => {
    const key = await newKey("panel-one");
    const tag = uniqueTag("panel-one");
    const id = await postEvaluation(key, {
      question: `What is a stack? [tag:${tag}]`,
      maxScore: 10,
      answers: answers([6, 4, 2], "o"),
      judge: { panel: ["solo-judge"] },
    });
    const result = await waitUntilDone(id, key);
    expect(result.judge.model).toBe("solo-judge");
    expect(result.judge.panel).toBeUndefined();
    expect(result.panel).toBeUndefined();
    expect(new Set((await judgeLog(tag)).map((e) => e.model))).toEqual(new Set(["solo-judge"]));
  });

  it("refuses a panel that names a model twice, a model beside a panel, and a mode not served, naming the field", async () => {
    const key = await newKey("panel-bad");
    const base = { question: "Q?", maxScore: 10, answers: answers([6, 4], "b") };
    const cases: [Record<string, unknown>, string][] = [
      [{ panel: ["a", "b", "a"] }, "judge.panel[2]"],
      [{ panel: ["a", "b"], model: "c" }, "judge.model"],
      [{ panel: ["a", "b"], panelMode: "all" }, "judge.panelMode"],
      [{ panelMode: "cycle" }, "judge.panelMode"],
      [{ panel: [] }, "judge.panel"],
    ];
    const before = (await request("GET", "/v1/evaluations?limit=100", { key })).json.data.length;
    for (const [judge, field] of cases) {
      const r = await request("POST", "/v1/evaluations", { key, body: { ...base, judge } });
      expect(r.status, JSON.stringify(judge)).toBe(400);
      expect(JSON.stringify(r.json), JSON.stringify(judge)).toContain(field);
    }
    expect((await request("GET", "/v1/evaluations?limit=100", { key })).json.data.length).toBe(before);
    await gateIdle();
  });
});
