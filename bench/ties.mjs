// `npm run bench -- --only ties`: how many knockout matches are left to the coin flip (issue 30,
// item 6). The paper's knockout (debiased) on the first 12 usable Mohler questions against judge-sim
// at --noise 0.2 --bias 0.2 over HTTP, with the service's prompts, parser and expected-score reading:
// on the written scores; with logprobs but the calls' unheld expectations left out (how every match
// was decided before they were kept: the "before" of the same run); and with logprobs as the service
// reads them, a tie that nothing split decided by position (the paper) or by the answers' records in
// earlier rounds (the service's tieBreak "record"). For each: the decided matches, the written ties,
// the ties of the held (deciding) scores and how many of them had different written scores (a shared
// cell edge), each reported `tie` kind, the matches decided by position (held scores equal and nothing
// else told the answers apart), and of those, how many were in round 1 (no record yet) and how many
// had the same probabilities for both answers in every call (the judge had no preference to read). No service is started, as in the quality bench
// (quality.mjs). The figures are judge-sim's, not a real judge's.
//
//   npm run bench -- --only ties [--quality-questions 12] [--noise 0.2 --bias 0.2]
import { readQuestions } from "./lib.mjs";
import { judgeOver, noiseSettings, startSim, toQuestion, usable } from "./quality.mjs";

const { runQuestion } = await import("../src/core/quality.ts");

const ROWS = [
  { label: "knockout (paper: debiased, written scores)", method: "knockout", debias: true, scoreFrom: "text", tieBreak: "position" },
  // the calls without their unheld expectations decide as they did before those were kept (the core's
  // tests hold it to that): the same run's "before"
  {
    label: "knockout, logprobs, held scores only (before)",
    method: "knockout",
    debias: true,
    scoreFrom: "logprobs",
    held: true,
    tieBreak: "position",
  },
  { label: "knockout, logprobs, ties by position", method: "knockout", debias: true, scoreFrom: "logprobs", tieBreak: "position" },
  // the service's: a tie nothing split goes to the better record of earlier rounds (src/core/tie-break.ts)
  {
    label: "knockout, logprobs, ties to the record (the service)",
    method: "knockout",
    debias: true,
    scoreFrom: "logprobs",
    tieBreak: "record",
  },
];

/** The judge's reply with its unheld expectations left out. */
const heldOnly = (judge) => async (question, call) => {
  const { scores, detail } = await judge(question, call);
  const { unheld: _, ...rest } = detail ?? {};
  return { scores, detail: rest };
};

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The counts of one row's matches (the knockout's own: extra matches decide nothing). */
export function tieCounts(matches) {
  const out = { matches: 0, writtenTies: 0, heldTies: 0, heldTiesWrittenDiffer: 0, byPosition: 0, inRound1: 0, alike: null, kinds: {} };
  for (const m of matches) {
    if (m.extra || m.b === null || m.winner === null) continue;
    out.matches++;
    const written = (id) => mean(m.calls.map((c) => c.scores[c.order.indexOf(id)]));
    const writtenEqual = written(m.a) === written(m.b);
    if (writtenEqual) out.writtenTies++;
    if (m.tie) out.kinds[m.tie] = (out.kinds[m.tie] ?? 0) + 1;
    if (m.scoreA !== m.scoreB) continue;
    out.heldTies++;
    if (!writtenEqual) out.heldTiesWrittenDiffer++;
    // before the unheld expectation was kept, a held tie was always the second answer's; since, only
    // "position" is, or a held tie that no tie names because the written scores differed and decided
    const unheldKept = m.calls.some((c) => Array.isArray(c.unheld));
    if (m.tie === "position" || (!unheldKept && m.tie !== "expected-unheld")) {
      out.byPosition++;
      // round 1 has no earlier record to break a tie with
      if (m.round === 1) out.inRound1++;
      // the judge's probabilities were the same for both answers in every call: it had no preference
      if (unheldKept) out.alike = (out.alike ?? 0) + (m.calls.every((c) => c.unheld[0] === c.unheld[1]) ? 1 : 0);
    }
  }
  return out;
}

export async function ties({ shared, flag, port }) {
  const limit = Number(flag("quality-questions", 12));
  const settings = noiseSettings(flag, [{ label: "--noise 0.2 --bias 0.2", noise: { noise: 0.2, bias: 0.2 } }]);
  const questions = readQuestions(shared.data)
    .filter((q) => usable(q, false))
    .slice(0, limit)
    .map((q) => toQuestion(q, false))
    .filter((q) => q.answers.length >= 2);
  const n = questions.reduce((s, q) => s + q.answers.length, 0);
  for (const setting of settings) {
    const sim = await startSim(shared.sim, shared.data, port, setting.noise);
    try {
      console.log(`\n  Mohler, ${questions.length} questions, ${n} answers; ${setting.label} (judge-sim)`);
      console.log(
        "  | method | matches | written ties | held ties | of them written differ | reported ties | decided by position | of them in round 1 | of them, equal probabilities in every call |",
      );
      console.log("  |---|---|---|---|---|---|---|---|---|");
      for (const row of ROWS) {
        const matches = [];
        const judge = row.held ? heldOnly(judgeOver(sim.url, [])) : judgeOver(sim.url, []);
        for (const [i, q] of questions.entries()) matches.push(...(await runQuestion(q, row, judge, 1 + i)).matches);
        const c = tieCounts(matches);
        const kinds = Object.entries(c.kinds)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ");
        console.log(
          `  | ${row.label} | ${c.matches} | ${c.writtenTies} | ${c.heldTies} | ${c.heldTiesWrittenDiffer} | ${kinds || "none"} | ${c.byPosition} | ${c.inRound1} | ${c.alike ?? ""} |`,
        );
      }
    } finally {
      sim.stop();
    }
  }
}
