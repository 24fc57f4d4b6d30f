import { describe, expect, it } from "vitest";
import { answers, gateIdle, judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// Issue 30 item 3, `judge.panel` on this project's pool of one model (test-judge): a panel of one, and
// the refusals. The panel's routing, its modes and its judges that are down are test/panel's, on a
// pool of several models.

describe("a panel of judges on a pool of one model", () => {
  it("takes a panel of one as a plain judge", async () => {
    const key = await newKey("panel-one");
    const tag = uniqueTag("panel-one");
    const id = await postEvaluation(key, {
      question: `What is a stack? [tag:${tag}]`,
      maxScore: 10,
      answers: answers([6, 4, 2], "o"),
      judge: { panel: ["test-judge"] },
    });
    const result = await waitUntilDone(id, key);
    expect(result.judge.model).toBe("test-judge");
    expect(result.judge.panel).toBeUndefined();
    expect(result.panel).toBeUndefined();
    expect(new Set((await judgeLog(tag)).map((e) => e.model))).toEqual(new Set(["test-judge"]));
  });

  it("takes a panel of one naming another model as judge.model naming it: the pool's one endpoint is asked it", async () => {
    const key = await newKey("panel-one-other");
    const tag = uniqueTag("panel-one-other");
    const id = await postEvaluation(key, {
      question: `What is a queue? [tag:${tag}]`,
      maxScore: 10,
      answers: answers([6, 4], "l"),
      judge: { panel: ["llama-3.1-70b"] },
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    expect(result.judge.model).toBe("llama-3.1-70b");
    expect(new Set((await judgeLog(tag)).map((e) => e.model))).toEqual(new Set(["llama-3.1-70b"]));
  });

  it("refuses a panel that names a model twice, a model beside a panel, a model the pool does not serve, and a mode without a panel, naming the field", async () => {
    const key = await newKey("panel-bad");
    const base = { question: "Q?", maxScore: 10, answers: answers([6, 4], "b") };
    const cases: [Record<string, unknown>, string][] = [
      [{ panel: ["a", "b", "a"] }, "judge.panel[2]"],
      [{ panel: ["a", "b"], model: "c" }, "judge.model"],
      [{ panel: ["test-judge", "other-judge"], panelMode: "all" }, "judge.panel[1]"],
      [{ panel: ["test-judge", "test-judge-2"], panelMode: "some" }, "judge.panelMode"],
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
