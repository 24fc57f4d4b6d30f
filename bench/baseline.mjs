// The comparison: the same work done the way a user would without this service. A plain script runs
// the paper's algorithm (shuffle, pair, judge both orders at once, the higher mean advances, a bye for
// the odd one out, round after round) for every question at once, with one bounded pool of concurrent
// requests in front of the judge (an asyncio.Semaphore, FastChat's --parallel).

const { seededRandom } = await import("../src/random/seeded.ts");

function semaphore(limit) {
  let free = limit;
  const line = [];
  return async (work) => {
    if (free > 0) free--;
    else await new Promise((go) => line.push(go));
    try {
      return await work();
    } finally {
      const next = line.shift();
      if (next) next();
      else free++;
    }
  };
}

function shuffle(items, rand) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function prompt(q, first, second) {
  return (
    `You are grading answers to an exam question on a scale of 0 to ${q.max_score}.\n\nQuestion: ${q.question}\n\nReference answer: ${q.reference}\n\n` +
    `Give a short explanation, then the scores as "Answer 1: X/${q.max_score} Answer 2: Y/${q.max_score}".\n\n` +
    `Answer 1:\n\`\`\`\n${first.text}\n\`\`\`\n\nAnswer 2:\n\`\`\`\n${second.text}\n\`\`\``
  );
}

async function ask(judgeUrl, text) {
  for (let attempt = 1; ; attempt++) {
    const r = await fetch(`${judgeUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "judge-sim", messages: [{ role: "user", content: text }], temperature: 0.1 }),
    });
    if (r.ok) {
      const content = (await r.json()).choices[0].message.content;
      const m = content.match(/Answer 1:\s*([\d.]+)\s*\/[\d.]+\s*Answer 2:\s*([\d.]+)/);
      if (m) return [Number(m[1]), Number(m[2])];
    }
    if (attempt >= 3) throw new Error(`judge failed: ${r.status}`);
  }
}

async function knockout(q, answers, judgeUrl, gate, seed) {
  const rand = seededRandom(seed).next;
  let remaining = answers;
  let calls = 0;
  while (remaining.length > 1) {
    const order = shuffle(remaining, rand);
    const pairs = [];
    for (let k = 0; k + 1 < order.length; k += 2) pairs.push([order[k], order[k + 1]]);
    const winners = await Promise.all(
      pairs.map(async ([a, b]) => {
        const [ab, ba] = await Promise.all([gate(() => ask(judgeUrl, prompt(q, a, b))), gate(() => ask(judgeUrl, prompt(q, b, a)))]);
        calls += 2;
        const scoreA = (ab[0] + ba[1]) / 2;
        const scoreB = (ab[1] + ba[0]) / 2;
        return scoreA > scoreB ? a : b;
      }),
    );
    if (order.length % 2 === 1) winners.push(order[order.length - 1]);
    remaining = winners;
  }
  return calls;
}

/** Grades every question at once with at most `limit` requests open; returns wall ms and calls. */
export async function runBaseline(judgeUrl, questions, { limit, maxAnswers = Infinity }) {
  const gate = semaphore(limit);
  const start = Date.now();
  const calls = await Promise.all(questions.map((q, i) => knockout(q, q.answers.slice(0, maxAnswers), judgeUrl, gate, i + 1)));
  return { ms: Date.now() - start, calls: calls.reduce((s, c) => s + c, 0) };
}
