import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { endpointsFor, poolModel, readPool, unservedJudge, unservedModel } from "../../../src/judge/pool";

const base = { maxConcurrency: 16 };
const endpoints = (list: unknown) => ({ ...base, JUDGE_ENDPOINTS: JSON.stringify(list) });

describe("the judge pool's configuration", () => {
  it("reads JUDGE_BASE_URL as a pool of one, named by its URL as the gate always was", () => {
    const { pool } = readPool({ ...base, JUDGE_BASE_URL: "http://gpu:8000/v1/", JUDGE_MODEL: "m", JUDGE_API_KEY: "k" }, {});
    expect(pool).toEqual({
      key: "http://gpu:8000/v1",
      endpoints: [{ url: "http://gpu:8000/v1", model: "m", models: ["m"], apiKey: "k", maxConcurrency: 16, weight: 1 }],
      capacity: 16,
      models: ["m"],
    });
    expect(readPool(base, {})).toEqual({ pool: null });
  });

  it("reads JUDGE_ENDPOINTS: caps summed, keys taken from the secrets they name, one gate name for the same set in any order", () => {
    const list = [
      { url: "http://a:8000/v1", maxConcurrency: 8, apiKey: "GPU_A_KEY" },
      { url: "http://b:8000/v1", maxConcurrency: 4, weight: 2, model: "qwen" },
    ];
    const { pool } = readPool(endpoints(list), { GPU_A_KEY: "secret-a" });
    expect(pool?.capacity).toBe(12);
    expect(pool?.endpoints).toEqual([
      { url: "http://a:8000/v1", apiKey: "secret-a", maxConcurrency: 8, weight: 1 },
      { url: "http://b:8000/v1", model: "qwen", models: ["qwen"], maxConcurrency: 4, weight: 2 },
    ]);
    expect(readPool(endpoints([...list].reverse()), { GPU_A_KEY: "x" }).pool?.key).toBe(pool?.key);
    // a listed endpoint without a cap takes JUDGE_MAX_CONCURRENCY's
    expect(readPool(endpoints([{ url: "http://a/v1" }]), {}).pool?.endpoints[0].maxConcurrency).toBe(16);
  });

  it.each([
    ["not json", "{", /JUDGE_ENDPOINTS is not JSON/],
    ["an empty list", [], /JUDGE_ENDPOINTS: .*no endpoint/],
    ["a url that is no URL", [{ url: "gpu-a" }], /JUDGE_ENDPOINTS\[0\]\.url: is not a URL/],
    ["credentials in the url", [{ url: "http://u:p@a/v1" }], /\[0\]\.url: must not carry credentials/],
    ["a query", [{ url: "http://a/v1?key=1" }], /\[0\]\.url: must not carry a query/],
    ["ftp", [{ url: "ftp://a/v1" }], /must be http/],
    ["a url twice", [{ url: "http://a/v1" }, { url: "http://a/v1/" }], /\[1\]\.url: the same endpoint as JUDGE_ENDPOINTS\[0\]/],
    ["a cap of 0", [{ url: "http://a/v1", maxConcurrency: 0 }], /\[0\]\.maxConcurrency/],
    ["an unknown field", [{ url: "http://a/v1", key: "sk-1" }], /JUDGE_ENDPOINTS\[0\]/],
    ["a key itself in apiKey", [{ url: "http://a/v1", apiKey: "sk-123-abc" }], /\[0\]\.apiKey: the name of a secret/],
    ["a secret that is not set", [{ url: "http://a/v1", apiKey: "NOPE" }], /\[0\]\.apiKey: names a secret that is not set/],
    [
      "an endpoint without a model in a pool of several",
      [{ url: "http://a/v1", model: "x" }, { url: "http://b/v1", model: "y" }, { url: "http://c/v1" }],
      /JUDGE_ENDPOINTS\[2\]: names no model, in a pool that serves several/,
    ],
    ["model and models together", [{ url: "http://a/v1", model: "x", models: ["x", "y"] }], /\[0\]: give model or models, not both/],
    ["a model twice in models", [{ url: "http://a/v1", models: ["x", "x"] }], /\[0\]\.models: names a model twice/],
  ])("refuses %s, naming it", (_, list, message) => {
    const settings = typeof list === "string" ? { ...base, JUDGE_ENDPOINTS: list } : endpoints(list);
    const read = readPool(settings, {});
    expect(read.pool).toBeUndefined();
    expect(read.error).toMatch(message);
  });

  it.each([
    ["a key in JUDGE_BASE_URL", { JUDGE_BASE_URL: "sk-live-4f9a8b7c6d5e" }, "sk-live-4f9a8b7c6d5e"],
    ["a JSON typo in JUDGE_ENDPOINTS", { JUDGE_ENDPOINTS: '[{"url": "http://a/v1", "apiKey": GPU_KEY_9f8e7d}]' }, "GPU_KEY_9f8e7d"],
    ["a key pasted as a field name", { JUDGE_ENDPOINTS: '[{"url": "http://a/v1", "sk-live-4f9a8b7c6d5e": 1}]' }, "sk-live-4f9a8b7c6d5e"],
    [
      "a key pasted as a secret's name",
      { JUDGE_ENDPOINTS: '[{"url": "http://a/v1", "apiKey": "sk_live_4f9a8b7c6d5e"}]' },
      "sk_live_4f9a8b7c6d5e",
    ],
    ["a key pasted as a URL", { JUDGE_ENDPOINTS: '[{"url": "sk-live-4f9a8b7c6d5e"}]' }, "sk-live-4f9a8b7c6d5e"],
    [
      "a URL twice",
      { JUDGE_ENDPOINTS: '[{"url": "http://gpu-4f9a8b7c6d5e/v1"}, {"url": "http://gpu-4f9a8b7c6d5e/v1"}]' },
      "gpu-4f9a8b7c6d5e",
    ],
    [
      "an unnamed endpoint among several models",
      {
        JUDGE_ENDPOINTS:
          '[{"url": "http://a/v1", "model": "m-4f9a8b7c6d5e"}, {"url": "http://b/v1", "model": "y"}, {"url": "http://c/v1"}]',
      },
      "m-4f9a8b7c6d5e",
    ],
  ])("refuses %s naming the variable and what is wrong, never the value; the log's detail has it", (_, settings, value) => {
    const read = readPool({ ...base, ...settings }, {});
    expect(read.error).toMatch(/^JUDGE_(BASE_URL|ENDPOINTS)/);
    // no run of 6 characters of the value, so neither the value nor the text around a JSON typo
    const runs = Array.from({ length: value.length - 5 }, (_, i) => value.slice(i, i + 6));
    for (const run of runs) expect(read.error, run).not.toContain(run);
    expect(read.detail).toMatch(/^JUDGE_(BASE_URL|ENDPOINTS)/);
  });

  it("shows the operator, in the log's detail, the value that was refused", () => {
    expect(readPool({ ...base, JUDGE_BASE_URL: "sk-live-1" }, {}).detail).toBe('JUDGE_BASE_URL: "sk-live-1" is not a URL');
    expect(readPool(endpoints([{ url: "http://a/v1", apiKey: "NOPE" }]), {}).detail).toMatch(/the secret NOPE is not set/);
    expect(readPool({ ...base, JUDGE_ENDPOINTS: "[{" }, {}).detail).toMatch(/^JUDGE_ENDPOINTS is not JSON: ./);
  });

  it("refuses an apiKey naming any of the service's own settings, though it is set: every var, secret and binding", () => {
    const vars = [...readFileSync("wrangler.toml", "utf8").matchAll(/^([A-Z][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]);
    const envBlock = readFileSync("worker-configuration.d.ts", "utf8").match(/interface __BaseEnv_Env \{([^}]*)\}/)?.[1] ?? "";
    const env = [...envBlock.matchAll(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/gm)].map((m) => m[1]);
    expect(vars).toContain("JUDGE_BASE_URL");
    expect(env).toContain("ADMIN_TOKEN");
    for (const name of new Set([...vars, ...env, "ADMIN_TOKEN", "JUDGE_API_KEY", "WEBHOOK_SIGNING_KEY", "admin_token"])) {
      const read = readPool(endpoints([{ url: "http://a/v1", apiKey: name }]), { [name]: "the-value" });
      expect(read.error, name).toMatch(/^JUDGE_ENDPOINTS\[0\]\.apiKey: names one of the service's own settings/);
    }
    expect(readPool(endpoints([{ url: "http://a/v1", apiKey: "GPU_KEY" }]), { GPU_KEY: "k" }).pool?.endpoints[0].apiKey).toBe("k");
  });

  it("refuses URLs that differ only in the case of scheme or host, or by a default port, as one endpoint listed twice", () => {
    for (const [a, b] of [
      ["http://gpu-a:8000/v1", "HTTP://GPU-A:8000/v1/"],
      ["https://Gpu.Example/v1", "https://gpu.example:443/v1"],
    ])
      expect(readPool(endpoints([{ url: a }, { url: b }]), {}).error, b).toBe(
        "JUDGE_ENDPOINTS[1].url: the same endpoint as JUDGE_ENDPOINTS[0]",
      );
    // the path is the server's to read: another path is another endpoint
    expect(readPool(endpoints([{ url: "http://a/v1" }, { url: "http://a/V1" }]), {}).pool?.endpoints).toHaveLength(2);
  });

  it("refuses a base URL ending in an empty query or fragment", () => {
    expect(readPool(endpoints([{ url: "http://a/v1?" }]), {}).error).toBe("JUDGE_ENDPOINTS[0].url: must not carry a query or a fragment");
    expect(readPool(endpoints([{ url: "http://a/v1#" }]), {}).error).toMatch(/must not carry a query/);
    expect(readPool({ ...base, JUDGE_BASE_URL: "http://a/v1?" }, {}).error).toMatch(/^JUDGE_BASE_URL: must not carry a query/);
  });

  it("reads a pool of several models (issue 30): per endpoint, one or several, and JUDGE_MODEL for those that name none", () => {
    const list = [{ url: "http://a/v1", model: "judge-a" }, { url: "http://b/v1", models: ["judge-b", "judge-c"] }, { url: "http://c/v1" }];
    const { pool } = readPool({ ...endpoints(list), JUDGE_MODEL: "judge-a" }, {});
    expect(pool?.models).toEqual(["judge-a", "judge-b", "judge-c"]);
    expect(pool?.endpoints.map((e) => [e.model, e.models])).toEqual([
      ["judge-a", ["judge-a"]],
      ["judge-b", ["judge-b", "judge-c"]],
      ["judge-a", ["judge-a"]],
    ]);
    // a call goes only where its model is served; a model no endpoint names is refused for a panel
    expect(endpointsFor(pool!, "judge-a").map((e) => e.url)).toEqual(["http://a/v1", "http://c/v1"]);
    expect(endpointsFor(pool!, "judge-c").map((e) => e.url)).toEqual(["http://b/v1"]);
    expect(endpointsFor(pool!, "judge-z")).toEqual([]);
    expect(unservedModel(pool!, ["judge-c", "judge-a"])).toBe(-1);
    expect(unservedModel(pool!, ["judge-a", "judge-z"])).toBe(1);
  });

  it("keeps a pool of one model as before: every endpoint takes every call, and a pool naming no model refuses nothing", () => {
    const one = readPool({ ...endpoints([{ url: "http://a/v1" }, { url: "http://b/v1" }]), JUDGE_MODEL: "qwen" }, {}).pool!;
    expect(endpointsFor(one, "other").length).toBe(2);
    expect(unservedModel(one, ["qwen", "other"])).toBe(1);
    const unnamed = readPool(endpoints([{ url: "http://a/v1" }, { url: "http://b/v1" }]), {}).pool!;
    expect(unnamed.models).toEqual([]);
    expect(unservedModel(unnamed, ["anything"])).toBe(-1);
  });

  it("names the judge no endpoint serves: a panel's member in any pool that names its models, judge.model and a panel of one where the pool serves several", () => {
    const several = readPool(
      endpoints([
        { url: "http://a/v1", model: "judge-a" },
        { url: "http://b/v1", model: "judge-b" },
      ]),
      {},
    ).pool!;
    expect(unservedJudge(several, { model: "judge-z" })).toEqual({ field: "model", model: "judge-z" });
    expect(unservedJudge(several, { panel: ["judge-z"] })).toEqual({ field: "panel[0]", model: "judge-z" });
    expect(unservedJudge(several, { panel: ["judge-a", "judge-z"] })).toEqual({ field: "panel[1]", model: "judge-z" });
    for (const judge of [undefined, {}, { model: "judge-b" }, { panel: ["judge-b"] }, { panel: ["judge-b", "judge-a"] }])
      expect(unservedJudge(several, judge)).toBeNull();
    // a pool of one model asks its endpoints whatever model an evaluation names, and a panel of one is such a model
    const one = readPool({ ...endpoints([{ url: "http://a/v1" }]), JUDGE_MODEL: "qwen" }, {}).pool!;
    expect(unservedJudge(one, { model: "llama" })).toBeNull();
    expect(unservedJudge(one, { panel: ["llama"] })).toBeNull();
    expect(unservedJudge(one, { panel: ["qwen", "llama"] })).toEqual({ field: "panel[1]", model: "llama" });
    const unnamed = readPool(endpoints([{ url: "http://a/v1" }, { url: "http://b/v1" }]), {}).pool!;
    expect(unservedJudge(unnamed, { panel: ["x", "y"] })).toBeNull();
  });

  it("refuses JUDGE_ENDPOINTS and JUDGE_BASE_URL together", () => {
    expect(readPool({ ...endpoints([{ url: "http://a/v1" }]), JUDGE_BASE_URL: "http://b/v1" }, {}).error).toMatch(/not both/);
  });
});

describe("the pool's model", () => {
  const a = { url: "http://a/v1" };
  const b = { url: "http://b/v1" };

  it("is the one model every endpoint that answered serves; those that did not answer are named", () => {
    expect(poolModel([a, b], [["qwen", "other"], ["qwen"]])).toEqual({ model: "qwen", missing: [] });
    expect(poolModel([a, b], [null, ["qwen"]])).toEqual({ model: "qwen", missing: ["http://a/v1"] });
    expect(
      poolModel(
        [
          { ...a, model: "other" },
          { ...b, model: "other" },
        ],
        [["qwen", "other"], ["other"]],
      ),
    ).toEqual({ model: "other", missing: [] });
  });

  it("refuses a pool of different models, naming who serves what", () => {
    const refused = poolModel([a, b], [["qwen"], ["llama"]]);
    expect("error" in refused && refused.error).toMatch(/http:\/\/a\/v1 serves qwen; http:\/\/b\/v1 serves llama/);
  });

  it("refuses an endpoint that does not serve its configured model, and a pool none of whose endpoints answered", () => {
    expect(poolModel([{ ...a, model: "qwen" }], [["llama"]])).toEqual({
      error: "judge http://a/v1 does not serve the model qwen (its /v1/models lists llama)",
    });
    expect(poolModel([a, b], [null, null])).toEqual({ error: "no judge endpoint answered /v1/models", unanswered: true });
  });
});
