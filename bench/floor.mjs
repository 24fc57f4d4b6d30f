// `npm run bench -- --only floor`: what workerd itself spends per judge call, with none of the
// service's code (issue 29's CPU targets). A minimal Worker (bench/floor/worker.js) under `wrangler
// dev`, as the service runs: one Durable Object sends N judge calls, 16 at once, to judge-sim (instant,
// streamed with logprobs, 20 alternatives a token as vLLM sends them), reading each reply to the end
// as text and parsing nothing; then the same with a row written to the object's SQLite per call;
// then also with a permit taken and given back over RPC from a second object, as the service's
// JudgeGate does. workerd's CPU (user + system, all its processes, as the overhead bench counts it)
// per call, at 0 and K reasoning tokens: the floor under the overhead bench's figure on this machine.
//
//   npm run bench -- --only floor [--reasoning-tokens 150] [--alternatives full|sim]
import path from "node:path";
import { median, root, startJudgeSim, startService } from "./lib.mjs";
import { fullAlternatives as startFullAlternatives } from "./full-alternatives.mjs";

const MODES = ["fetch", "fetch+row", "fetch+row+gate"];
const CALLS = 520;
const RUNS = 5;

/** A grading prompt of the service's size: a Mohler question, its reference and two of its answers. */
function promptOf(q) {
  const [first, second] = q.answers;
  return (
    `You are grading answers to an exam question on a scale of 0 to ${q.max_score}.\n\nQuestion: ${q.question}\n\nReference answer: ${q.reference}\n\n` +
    `Give a short explanation, then the scores as "Answer 1: X/${q.max_score} Answer 2: Y/${q.max_score}".\n\n` +
    `Answer 1:\n\`\`\`\n${first.text}\n\`\`\`\n\nAnswer 2:\n\`\`\`\n${second.text}\n\`\`\``
  );
}

export async function floor({ shared, port, report, questions, reasoningTokens, fullAlternatives }) {
  const q = questions.find((x) => x.answers.length >= 2);
  const body = JSON.stringify({
    model: "judge-sim",
    messages: [{ role: "user", content: promptOf(q) }],
    temperature: 0,
    max_tokens: 1024,
    stream: true,
    stream_options: { include_usage: true },
    logprobs: true,
    top_logprobs: 20,
  });
  const levels = reasoningTokens === 0 ? [0] : [0, reasoningTokens];
  for (const tokens of levels) {
    const sim = await startJudgeSim(shared, port.sim, { slots: 1000, service: 0, jitter: 0, reasoningTokens: tokens });
    const proxy = fullAlternatives ? await startFullAlternatives(sim.url) : null;
    const worker = await startService(port.service, {}, { config: path.join(root, "bench/floor/wrangler.toml") });
    try {
      const url = `${(proxy ?? sim).url}/v1/chat/completions`;
      const job = (mode, name) =>
        fetch(worker.url, { method: "POST", body: JSON.stringify({ url, body, n: CALLS, concurrency: 16, mode, name }) }).then((r) =>
          r.json(),
        );
      await job("fetch", "warm-up");
      for (const mode of MODES) {
        const perCall = [];
        let bytes = 0;
        for (let run = 0; run < RUNS; run++) {
          const cpu0 = worker.workerdCpuMs();
          const done = await job(mode, `${mode}-${run}`);
          perCall.push((worker.workerdCpuMs() - cpu0) / done.calls);
          bytes = done.bytes / done.calls;
        }
        report(
          `floor, ${tokens} reasoning tokens, ${mode}`,
          `workerd CPU per call, ${CALLS} calls x ${RUNS}: ${perCall.map((x) => x.toFixed(2)).join(", ")} ms (median ${median(perCall).toFixed(2)}); ${(bytes / 1024).toFixed(1)} KB a reply`,
          null,
          tokens === 0 ? "service's target 0.7 ms" : "service's target 1.0 ms",
        );
      }
    } finally {
      await worker.stop();
      await proxy?.stop();
      await sim.stop();
    }
  }
}
