import { describe, expect, it } from "vitest";
import { formatDiagnostics, pooledDiagnostics } from "../../../src/cli/diagnostics";
import type { DatasetQuestion } from "../../../src/cli/dataset";

function question(id: string, texts: string[]): DatasetQuestion {
  return {
    questionId: id,
    question: "Q",
    maxScore: 5,
    minScore: 0,
    translation: false,
    ignored: false,
    answers: texts.map((text, i) => ({ id: `${id}-${i}`, text, humanScore: 1 })),
  };
}

/** A completed result of one match of a and b, judged in both orders; the first shown always wins. */
function result(q: DatasetQuestion, extra = false) {
  const [a, b] = q.answers.map((x) => x.id);
  return {
    result: {
      status: "completed",
      method: "knockout",
      answers: [],
      usage: { judgeCalls: 2, promptTokens: 0, completionTokens: 0, retries: 0, parseFailures: 0 },
      matches: [
        {
          round: extra ? "extra" : 1,
          a,
          b,
          scoreA: 4,
          scoreB: 3,
          winner: a,
          calls: [
            { order: [a, b], scores: [5, 3], expected: null },
            { order: [b, a], scores: [4, 3], expected: null },
          ],
        },
      ],
    },
  };
}

describe("the CLI's judge diagnostics", () => {
  it("pool every completed question's calls, with lengths from the dataset's texts (in characters)", () => {
    const qs = [question("q1", ["long answer here 📚📚", "short"]), question("q2", ["a", "bb"]), question("q3", ["x", "y"])];
    const d = pooledDiagnostics(qs, [result(qs[0]), result(qs[1]), { result: null }]);
    expect(d.firstPositionWins).toMatchObject({ count: 4, of: 4 });
    expect(d.ordersDisagree).toMatchObject({ count: 2, of: 2 });
    // q1: the longer a won; q2: the shorter a won
    expect(d.longerWins).toMatchObject({ count: 1, of: 2 });
    expect(d.ties).toMatchObject({ count: 0, of: 2 });
  });

  it('leave an extra match (round "extra" on the wire) out of the ties', () => {
    const q = question("q1", ["a", "b"]);
    expect(pooledDiagnostics([q], [result(q, true)]).ties.of).toBe(0);
  });

  it("print a line a figure with the anchors beside, then the warnings", () => {
    const qs = Array.from({ length: 12 }, (_, i) => question(`q${i}`, ["a long answer, longer", "short"]));
    const text = formatDiagnostics(
      pooledDiagnostics(
        qs,
        qs.map((q) => result(q)),
      ),
    );
    const lines = text.split("\n");
    expect(lines[0]).toBe("Judge diagnostics (pooled over the run's calls)");
    expect(lines[1]).toMatch(/^ {2}first position wins +100\.0% \(24 of 24\), 95% \d+\.\d%–100\.0% +\[FastChat's judge: 52\.6%\]$/);
    expect(lines[3]).toContain("[FastChat's judge: 68%; AlpacaEval warns above 70%]");
    expect(lines[5]).toBe("  written ties         0.0% (0 of 12; 0 decided by position), 95% 0.0%–24.2%");
    expect(lines.filter((l) => l.startsWith("  warning: "))).toHaveLength(3);
    expect(formatDiagnostics(pooledDiagnostics([], []))).toContain("first position wins  –");
  });
});
