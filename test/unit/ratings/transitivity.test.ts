import { describe, expect, it } from "vitest";
import type { Game, Outcome } from "../../../src/ratings/games.js";
import { majorityAgreement, pairwiseMajorities, transitivityReport } from "../../../src/ratings/transitivity.js";

const g = (a: string, b: string, outcome: Outcome = 1): Game => ({ a, b, outcome });

describe("transitivity (seeds/002 section 6.1.2)", () => {
  it("finds the rock-paper-scissors cycle", () => {
    const games = [g("rock", "scissors"), g("scissors", "paper"), g("paper", "rock")];
    const report = transitivityReport(games);
    expect(report.triples).toEqual({ total: 1, decided: 1, transitive: 0, intransitive: 1 });
    expect(report.transitiveShare).toBe(0);
    expect(report.cycles).toEqual([["rock", "scissors", "paper"]]);
    expect(report.linearOrder).toBe(false);
  });

  it("orients cycles as listed: A beats B, B beats C, C beats A", () => {
    const report = transitivityReport([g("a", "c"), g("c", "b"), g("b", "a")]);
    const [[x, y, z]] = report.cycles;
    const beats = new Set(pairwiseMajorities([g("a", "c"), g("c", "b"), g("b", "a")]).map((m) => `${m.winner}>${m.loser}`));
    expect(beats.has(`${x}>${y}`) && beats.has(`${y}>${z}`) && beats.has(`${z}>${x}`)).toBe(true);
  });

  it("counts a hand-made 5-player tournament: one 3-cycle among otherwise ordered players", () => {
    // Majority order a > b > c > d > e except that e beats c. Of the 10 triples only those with
    // both c and e can break, and {a,c,e}, {b,c,e} still have a top player (a resp. b), so the
    // single cycle is c > d > e > c.
    const order = ["a", "b", "c", "d", "e"];
    const games: Game[] = [];
    for (let i = 0; i < order.length; i++) {
      for (let j = i + 1; j < order.length; j++) {
        const upset = order[i] === "c" && order[j] === "e";
        // Two games per pair, decided 2-0, plus a draw so majorities are by points.
        games.push(g(order[i], order[j], upset ? 0 : 1), g(order[j], order[i], upset ? 1 : 0), g(order[i], order[j], 0.5));
      }
    }
    const report = transitivityReport(games);
    expect(report.players).toBe(5);
    expect(report.pairs).toEqual({ decided: 10, tied: 0, unplayed: 0 });
    expect(report.triples).toEqual({ total: 10, decided: 10, transitive: 9, intransitive: 1 });
    expect(report.transitiveShare).toBeCloseTo(0.9, 15);
    expect(report.cycles).toEqual([["c", "d", "e"]]);
  });

  it("treats ties and unplayed pairs as undecided", () => {
    const games = [g("a", "b"), g("b", "c"), g("a", "c", 0.5), g("c", "d")];
    const report = transitivityReport(games);
    // Pairs: ab, bc decided; ac tied; cd decided; ad, bd unplayed.
    expect(report.pairs).toEqual({ decided: 3, tied: 1, unplayed: 2 });
    expect(report.triples).toEqual({ total: 4, decided: 0, transitive: 0, intransitive: 0 });
    expect(report.transitiveShare).toBeNull();
    expect(report.linearOrder).toBe(false);
  });

  it("recognises a linear order (the paper's Figure 2 situation)", () => {
    const games = [g("a", "b"), g("b", "c"), g("a", "c"), g("c", "a"), g("a", "c")];
    const report = transitivityReport(games);
    expect(report.linearOrder).toBe(true);
    expect(report.transitiveShare).toBe(1);
  });

  it("majority is by points: draws count half, head-to-head summed over both orders", () => {
    const majorities = pairwiseMajorities([g("x", "y", 1), g("y", "x", 0.5), g("y", "x", 0.5), g("y", "x", 1)]);
    // x: 1 + 0.5 + 0.5 + 0 = 2 of 4 -> tie, no majority.
    expect(majorities).toEqual([]);
    const [m] = pairwiseMajorities([g("x", "y", 1), g("y", "x", 0.5), g("y", "x", 0.5)]);
    expect(m).toEqual({ winner: "x", loser: "y", games: 3, winnerScore: 2 });
  });
});

describe("agreement of a ranking with the pairwise majority (002 eq. 8)", () => {
  const games = [g("a", "b"), g("b", "c"), g("a", "c"), g("a", "b")];
  const majorities = pairwiseMajorities(games);

  it("agrees when ratings order every decided pair as the majority does", () => {
    const result = majorityAgreement(
      majorities,
      new Map([
        ["a", 3],
        ["b", 2],
        ["c", 1],
      ]),
    );
    expect(result).toEqual({ decidedPairs: 3, agreeing: 3, share: 1, agrees: true, disagreements: [] });
  });

  it("lists the pairs it gets wrong; equal ratings do not agree with a decided pair", () => {
    const result = majorityAgreement(
      majorities,
      new Map([
        ["a", 3],
        ["b", 1],
        ["c", 1],
      ]),
    );
    expect(result.agreeing).toBe(2);
    expect(result.agrees).toBe(false);
    expect(result.disagreements.map((d) => [d.winner, d.loser])).toEqual([["b", "c"]]);
    expect(result.share).toBeCloseTo(2 / 3, 15);
  });

  it("no rating can agree with a cycle", () => {
    const cycle = pairwiseMajorities([g("r", "s"), g("s", "p"), g("p", "r")]);
    for (const ratings of [
      [3, 2, 1],
      [1, 3, 2],
      [2, 1, 3],
    ]) {
      const r = new Map([
        ["r", ratings[0]],
        ["s", ratings[1]],
        ["p", ratings[2]],
      ]);
      expect(majorityAgreement(cycle, r).agrees).toBe(false);
    }
    expect(majorityAgreement([], new Map()).share).toBeNull();
  });
});
