import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import type { JudgeLogEntry } from "../support/judge-server";
import { answers, countRows, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "../workers/helpers";

// Issue 30 item 3, a panel of judges on a pool of several models (vitest.config.ts, "panel"): what is
// refused when an evaluation is made, before anything is written. The one evaluation run here asks
// judge-a, which test/panel/panel.test.ts (which may run at the same time) never takes down.

const ports = inject("panelPorts");
const log = (judge: "a" | "b" | "c", tag: string): Promise<JudgeLogEntry[]> =>
  fetch(`http://127.0.0.1:${ports[judge]}/log?tag=${tag}`).then((r) => r.json());

describe("a panel of judges on a pool of several models: refusals", () => {
  it("refuses a panel naming a model no endpoint serves, naming judge.panel[i], and writes nothing", async () => {
    const key = await newKey(uniqueTag("panel-refusals"));
    const before = await countRows("evaluations");
    const refused = await request("POST", "/v1/evaluations", {
      key,
      body: { question: "Q?", maxScore: 10, answers: answers([6, 4]), judge: { panel: ["judge-a", "judge-z"], panelMode: "all" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([{ field: "judge.panel[1]", reason: expect.stringContaining("judge-z") }]);
    const dry = await request("POST", "/v1/evaluations?dryRun=true", {
      key,
      body: { question: "Q?", maxScore: 10, answers: answers([6, 4]), judge: { panel: ["judge-y", "judge-a"] } },
    });
    expect(dry.status).toBe(400);
    expect(dry.json.errors[0].field).toBe("judge.panel[0]");
    const batch = await request("POST", "/v1/batches", {
      key,
      body: { items: [{ question: "Q?", maxScore: 10, answers: answers([6, 4]), judge: { panel: ["judge-a", "judge-b", "nope"] } }] },
    });
    expect(batch.status).toBe(400);
    expect(batch.json.errors[0].field).toBe("items[0].judge.panel[2]");
    expect(await countRows("evaluations")).toBe(before);
  });

  it("refuses a judge.model no endpoint serves, and a panel of one naming one, at creation, naming the field, and writes nothing", async () => {
    const key = await newKey(uniqueTag("panel-refusals"));
    const before = await countRows("evaluations");
    const base = { question: "Q?", maxScore: 10, answers: answers([6, 4]) };
    const reason = "no judge endpoint serves the model judge-z (the pool serves judge-a, judge-b, judge-c)";
    for (const path of ["/v1/evaluations", "/v1/evaluations?dryRun=true"]) {
      const named = await request("POST", path, { key, body: { ...base, judge: { model: "judge-z" } } });
      expect([named.status, named.json.errors]).toEqual([400, [{ field: "judge.model", reason }]]);
      // a panel of one is a plain judge, refused as one
      const one = await request("POST", path, { key, body: { ...base, judge: { panel: ["judge-z"] } } });
      expect([one.status, one.json.errors]).toEqual([400, [{ field: "judge.panel[0]", reason }]]);
    }
    for (const path of ["/v1/batches", "/v1/batches?dryRun=true"]) {
      const batch = await request("POST", path, {
        key,
        body: {
          items: [
            { ...base, judge: { model: "judge-c" } },
            { ...base, judge: { model: "judge-z" } },
          ],
        },
      });
      expect([batch.status, batch.json.errors]).toEqual([400, [{ field: "items[1].judge.model", reason }]]);
    }
    expect(await countRows("evaluations")).toBe(before);
    // a model the pool serves is taken, and asked of its own endpoint only
    const tag = uniqueTag("one-a");
    const served = await waitUntilDone(
      await postEvaluation(key, { ...base, question: `Q? [tag:${tag}]`, judge: { panel: ["judge-a"] } }),
      key,
    );
    expect(served.status).toBe("completed");
    expect(served.judge.model).toBe("judge-a");
    expect(served.panel).toBeUndefined();
    expect((await log("a", tag)).length).toBe(served.usage.judgeCalls);
    expect((await log("b", tag)).length + (await log("c", tag)).length).toBe(0);
  });

  it("refuses to rerun an evaluation whose judge the pool no longer serves, with a 409, queuing nothing", async () => {
    const key = await newKey(uniqueTag("panel-rerun"));
    const tag = uniqueTag("rerun-gone");
    const id = await postEvaluation(key, {
      question: `Q? [tag:${tag}]`,
      maxScore: 10,
      answers: answers([6, 4]),
      judge: { model: "judge-a" },
    });
    expect((await waitUntilDone(id, key)).status).toBe("completed");
    // the pool's configuration changed since: the model it was graded by has no endpoint now
    await env.DB.prepare("UPDATE evaluations SET judge_model = 'judge-retired' WHERE id = ?").bind(id).run();
    const before = await countRows("evaluations");
    const refused = await request("POST", `/v1/evaluations/${id}/rerun`, { key });
    expect(refused.status).toBe(409);
    expect(refused.json.detail).toBe(
      "this evaluation was graded by judge-retired, which no judge endpoint serves now (the pool serves judge-a, judge-b, judge-c): it cannot be rerun",
    );
    expect(await countRows("evaluations")).toBe(before);
  });
});
