import { describe, expect, it } from "vitest";
import { parseCli } from "../../../src/cli/args";
import { checkDrops, checkFloors, GATE_METRICS, gateReason, parseThresholds, type GateRun } from "../../../src/cli/gate";
import { githubSummary, junitXml, markdownCell, xmlText } from "../../../src/cli/gate-report";
import { buildReport } from "../../../src/metrics/report";

/** A run whose pooled Pearson is `pearson` (a report built from real items would need the data to hit it). */
const run = (label: string, figures: { pearson: number | null; qwk?: number | null }, dataset = "mohler"): GateRun => {
  const r = buildReport([], { bootstrap: false });
  return {
    dataset,
    label,
    report: {
      ...r,
      questionLevel: { ...r.questionLevel, pooled: { ...r.questionLevel.pooled, pearson: { value: figures.pearson, ci: null } } },
      humanAgreement: figures.qwk === undefined ? null : { n: 10, pearson: null, spearman: null, mae: 0, exact: 0.5, qwk: figures.qwk },
    },
  };
};

/**
 * Well-formed XML 1.0, strictly enough for what junitXml writes: one prolog, one root, tags nested and
 * closed in order, attributes quoted and unique, no raw `<` or stray `&` in text or values.
 */
function wellFormed(xml: string): void {
  const entity = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;
  let rest = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, "");
  if (rest === xml) throw new Error("no XML declaration");
  const stack: string[] = [];
  let roots = 0;
  const escaped = (t: string) => {
    for (let i = 0; i < t.length; i++) if (t[i] === "&" && !entity.test(t.slice(i))) throw new Error(`stray & in ${JSON.stringify(t)}`);
  };
  const text = (t: string) => {
    escaped(t);
    if (stack.length === 0 && t.trim() !== "") throw new Error(`text outside the root: ${t}`);
  };
  while (rest.length > 0) {
    const lt = rest.indexOf("<");
    if (lt === -1) {
      text(rest);
      break;
    }
    text(rest.slice(0, lt));
    rest = rest.slice(lt);
    const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(rest);
    if (!tag) throw new Error(`bad tag at ${rest.slice(0, 40)}`);
    const [whole, closing, name, attributes, selfClosing] = tag;
    const names = [...attributes.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)].map((m) => {
      escaped(m[2]);
      return m[1];
    });
    if (new Set(names).size !== names.length) throw new Error(`repeated attribute in ${whole}`);
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes the wrong element`);
    } else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name);
    } else if (stack.length === 0) roots++;
    rest = rest.slice(whole.length);
  }
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(", ")}`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

describe("gate thresholds", () => {
  it("reads floors and drops; a bare drop is Pearson's", () => {
    const floors = parseThresholds("--fail-under", "pearson=0.80, qwk=0.6,accuracy=1", "floor");
    expect(floors.ok && floors.thresholds.map((t) => [t.metric.name, t.value])).toEqual([
      ["pearson", 0.8],
      ["qwk", 0.6],
      ["accuracy", 1],
    ]);
    const drop = parseThresholds("--fail-if-worse", "0.02", "drop");
    expect(drop.ok && drop.thresholds.map((t) => [t.metric.name, t.value])).toEqual([["pearson", 0.02]]);
    const drops = parseThresholds("--fail-if-worse", "qwk=0.05,exact=.1", "drop");
    expect(drops.ok && drops.thresholds.map((t) => [t.metric.name, t.value])).toEqual([
      ["qwk", 0.05],
      ["exact", 0.1],
    ]);
    expect(GATE_METRICS.map((m) => m.name)).toEqual(["pearson", "spearman", "kendall", "qwk", "exact", "accuracy"]);
  });

  it("names what is wrong: unknown metric, out of range, malformed, repeated", () => {
    const error = (text: string, kind: "floor" | "drop" = "floor") => {
      const r = parseThresholds("--fail-under", text, kind);
      return r.ok ? null : r.error;
    };
    expect(error("pearsn=0.8")).toBe(`--fail-under: unknown metric "pearsn"; one of pearson, spearman, kendall, qwk, exact, accuracy`);
    expect(error("pearson=1.2")).toBe("--fail-under: pearson=1.2 is out of range [-1, 1]");
    expect(error("qwk=-1.5")).toBe("--fail-under: qwk=-1.5 is out of range [-1, 1]");
    expect(error("accuracy=-0.1")).toBe("--fail-under: accuracy=-0.1 is out of range [0, 1]");
    expect(error("pearson=-0.5")).toBeNull();
    expect(error("pearson=high")).toBe(`--fail-under: pearson must be a number, not "high"`);
    expect(error("pearson=0x1")).toBe(`--fail-under: pearson must be a number, not "0x1"`);
    expect(error("pearson=")).toBe(`--fail-under: pearson must be a number, not ""`);
    expect(error("0.8")).toBe(`--fail-under: "0.8" is not METRIC=VALUE (for example pearson=0.8)`);
    expect(error("pearson=0.8=1")).toMatch(/is not METRIC=VALUE/);
    expect(error("pearson=0.8,")).toMatch(/"" is not METRIC=VALUE/);
    expect(error("pearson=0.8,pearson=0.7")).toBe("--fail-under: pearson is given twice");
    // a drop is from 0 to the metric's whole range
    expect(error("-0.01", "drop")).toBe("--fail-under: pearson=-0.01 is out of range [0, 2]");
    expect(error("accuracy=1.5", "drop")).toBe("--fail-under: accuracy=1.5 is out of range [0, 1]");
  });

  it("the command line refuses them as usage errors (exit 2), and a gate on a dry run", () => {
    const base = ["eval", "d.jsonl", "--url", "http://x", "--key", "k"];
    const error = (argv: string[]) => (parseCli(argv) as { error: string }).error;
    expect(error([...base, "--fail-under", "pearson=2"])).toBe("--fail-under: pearson=2 is out of range [-1, 1]");
    expect(error([...base, "--format", "xml"])).toBe("--format must be one of table, junit, github");
    expect(error([...base, "--dry-run", "--fail-under", "pearson=0.5"])).toMatch(/--dry-run grades nothing/);
    const ok = parseCli([...base, "--fail-under", "pearson=0.8,qwk=0.6", "--format", "junit"]);
    expect(ok.ok && [ok.options.format, ok.options.failUnder.map((t) => t.metric.name)]).toEqual(["junit", ["pearson", "qwk"]]);
    const plain = parseCli(base);
    expect(plain.ok && [plain.options.format, plain.options.failUnder]).toEqual(["table", []]);
  });
});

describe("gate verdicts", () => {
  const floors = (text: string) => {
    const r = parseThresholds("--fail-under", text, "floor");
    if (!r.ok) throw new Error(r.error);
    return r.thresholds;
  };

  it("a figure below its floor fails with its value and floor; at the floor passes; undefined fails", () => {
    const cases = checkFloors([run("knockout (debiased)", { pearson: 0.734, qwk: 0.6 })], floors("pearson=0.80,qwk=0.6"));
    expect(cases.map((c) => [c.metric, c.value, c.threshold, c.failure])).toEqual([
      ["pearson", 0.734, 0.8, "pearson 0.734 is below 0.8 on mohler, knockout (debiased)"],
      ["qwk", 0.6, 0.6, null],
    ]);
    expect(gateReason(cases)).toBe("gate failed: pearson 0.734 is below 0.8 on mohler, knockout (debiased)");
    const undefinedQwk = checkFloors([run("k", { pearson: 0.9 })], floors("qwk=0.5"));
    expect(undefinedQwk[0].failure).toBe("qwk is undefined on mohler, k, so it cannot be shown to reach 0.5");
    expect(gateReason(checkFloors([run("k", { pearson: 0.81 })], floors("pearson=0.8")))).toBeNull();
  });

  it("every failure of every run in the one line", () => {
    const cases = checkFloors(
      [run("a", { pearson: 0.5 }), run("b", { pearson: 0.9 }), run("c", { pearson: 0.1 }, "zhen")],
      floors("pearson=0.8"),
    );
    expect(gateReason(cases)).toBe("gate failed: pearson 0.5 is below 0.8 on mohler, a; pearson 0.1 is below 0.8 on zhen, c");
    expect(gateReason(cases)).not.toContain("\n");
  });

  it("no floors: every figure the run has, passing", () => {
    const cases = checkFloors([run("k", { pearson: 0.7 })], []);
    expect(cases.map((c) => [c.metric, c.kind, c.failure])).toEqual([["pearson", "none", null]]);
  });

  it("compare: a drop past the tolerance fails, one within it passes, a baseline without the figure sets no bar", () => {
    const drop = parseThresholds("--fail-if-worse", "0.02", "drop");
    if (!drop.ok) throw new Error(drop.error);
    const pair = (before: number | null, after: number | null) => ({
      baseline: run("knockout", { pearson: before }),
      candidate: run("knockout", { pearson: after }),
    });
    const [worse, within, exactly, better, noBar, lost] = checkDrops(
      [pair(0.8, 0.75), pair(0.8, 0.785), pair(0.8, 0.78), pair(0.7, 0.9), pair(null, 0.5), pair(0.8, null)],
      drop.thresholds,
    );
    expect(worse.failure).toBe("pearson 0.75 is 0.05 below the baseline's 0.8 on mohler, knockout (at most 0.02 allowed)");
    expect([within.failure, exactly.failure, better.failure, noBar.failure]).toEqual([null, null, null, null]);
    expect(lost.failure).toBe("pearson is undefined on mohler, knockout");
    expect(worse).toMatchObject({ value: 0.75, baseline: 0.8, threshold: 0.02, kind: "drop" });
  });
});

describe("gate reports", () => {
  const cases = [
    ...checkFloors(
      [run(`knockout <"debiased"> & 'co'`, { pearson: 0.5, qwk: 0.7 }, "a|b\u0001\uD800"), run("individual", { pearson: 0.9, qwk: 0.7 })],
      (() => {
        const r = parseThresholds("--fail-under", "pearson=0.8,qwk=0.6", "floor");
        if (!r.ok) throw new Error(r.error);
        return r.thresholds;
      })(),
    ),
  ];

  it("JUnit: a valid document, one suite per run, one case per threshold, failures as <failure>, markup escaped", () => {
    const xml = junitXml("knockout-judge", cases);
    wellFormed(xml);
    expect(xml).toContain(`<testsuites name="knockout-judge" tests="4" failures="1">`);
    expect(xml).toContain(`<testsuite name="a|b: knockout &lt;&quot;debiased&quot;&gt; &amp; &apos;co&apos;" tests="2" failures="1">`);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain(`name="knockout &lt;&quot;debiased&quot;&gt; &amp; &apos;co&apos;: pearson &gt;= 0.8"`);
    expect(xml).toMatch(/<failure message="pearson 0.5 is below 0.8 on a\|b, knockout &lt;&quot;debiased/);
    expect(xml).toContain(`<system-out>qwk 0.700</system-out>`);
    // the characters XML 1.0 cannot carry are gone, not escaped into something invalid
    expect(xml.includes("\u0001") || xml.includes("\uD800")).toBe(false);
    expect(xmlText("a\u0000b\tc\uFFFEd😀")).toBe("ab\tcd😀");
    expect(() => wellFormed(`<?xml version="1.0" encoding="UTF-8"?>\n<a>x & y</a>`)).toThrow(/stray &/);
    expect(() => wellFormed(`<?xml version="1.0" encoding="UTF-8"?>\n<a><b></a></b>`)).toThrow(/wrong element/);
  });

  it("with no thresholds each figure is a passing case, so a CI can chart it", () => {
    const xml = junitXml("knockout-judge", checkFloors([run("knockout", { pearson: 0.7 })], []));
    wellFormed(xml);
    expect(xml).toContain(`<testcase classname="knockout-judge.mohler" name="knockout: pearson">`);
    expect(xml).not.toContain("<failure");
  });

  it("the Markdown summary: the verdict, a row per case, cells that cannot break the table", () => {
    const md = githubSummary("knockout-judge eval: mohler", cases);
    const lines = md.split("\n");
    expect(lines[0]).toBe("### knockout-judge eval: mohler ❌ failed");
    expect(lines[2]).toBe("| Dataset | Method | Metric | Value | Threshold | Result |");
    expect(lines[4]).toBe(`| a\\|b\u0001\uD800 | knockout \\<"debiased"\\> &amp; 'co' | pearson | 0.500 | ≥ 0.8 | ❌ |`);
    expect(lines[7]).toBe("| mohler | individual | qwk | 0.700 | ≥ 0.6 | ✅ |");
    // every row has the header's number of cells
    for (const row of lines.slice(2, 8)) expect(row.replace(/\\\|/g, "").split("|").length).toBe(8);
    expect(md).toContain("gate failed: pearson 0.5 is below 0.8");
    expect(markdownCell("x\n| *y* [z](u)")).toBe("x \\| \\*y\\* \\[z\\](u)");
    const passed = githubSummary(
      "t",
      cases.filter((c) => c.failure === null),
    );
    expect(passed.split("\n")[0]).toBe("### t ✅ passed");
  });

  it("compare's summary shows the baseline beside the value", () => {
    const drop = parseThresholds("--fail-if-worse", "0.02", "drop");
    if (!drop.ok) throw new Error(drop.error);
    const md = githubSummary(
      "compare",
      checkDrops([{ baseline: run("k", { pearson: 0.8 }), candidate: run("k", { pearson: 0.7 }) }], drop.thresholds),
    );
    expect(md.split("\n")[2]).toBe("| Dataset | Method | Metric | Baseline | Value | Threshold | Result |");
    expect(md.split("\n")[4]).toBe("| mohler | k | pearson | 0.800 | 0.700 | drop ≤ 0.02 | ❌ |");
  });
});
