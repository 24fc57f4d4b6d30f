import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types; its functions are tested as they run in `npm run lint`
import { LAYERS, layerProblems, readTree } from "../../../scripts/check-layers.mjs";

const tree = (files: Record<string, string>) => new Map(Object.entries(files));

describe("the folders' layers (npm run lint)", () => {
  it("hold for this repository: no folder imports one above it, no loose file in src/", () => {
    expect(layerProblems(readTree(path.resolve(import.meta.dirname, "../../..")))).toEqual([]);
  });

  it("refuse an import that runs back up, naming the file and both folders", () => {
    const problems = layerProblems(
      tree({
        "src/metrics/report.ts": 'import { calibrate } from "../teacher/calibration";\n',
        "src/teacher/calibration.ts": 'import { pearson } from "../metrics/correlation";\n',
      }),
    );
    expect(problems).toEqual([
      "src/metrics/report.ts: imports ../teacher/calibration: src/teacher is above it, and src/metrics may import only from lower layers",
    ]);
  });

  it("refuse an import between two folders of one layer, dynamic and re-exports included", () => {
    expect(
      layerProblems(
        tree({
          "src/judge/ask.ts": 'export { view } from "../live/view";\nconst m = await import("../live/view");\n',
        }),
      ),
    ).toHaveLength(2);
  });

  it("refuse a loose file in src/ and a folder with no layer", () => {
    expect(layerProblems(tree({ "src/helpers.ts": "export const x = 1;\n", "src/misc/a.ts": "" }))).toEqual([
      "src/helpers.ts: a loose file in src/; put it in the folder of its role",
      "src/misc/a.ts: its folder src/misc has no layer; add it to LAYERS in scripts/check-layers.mjs",
    ]);
  });

  it("let a folder import its own files, lower layers and packages", () => {
    expect(
      layerProblems(
        tree({
          "src/api/app.ts": 'import { Hono } from "hono";\nimport { x } from "./body";\nimport { y } from "../contract";\n',
          "durable-objects/tournament.ts": 'import { z } from "../src/evaluations/played";\n',
        }),
      ),
    ).toEqual([]);
  });

  it("name every folder of src/ once", () => {
    const folders = LAYERS.flat();
    expect(new Set(folders).size).toBe(folders.length);
  });
});
