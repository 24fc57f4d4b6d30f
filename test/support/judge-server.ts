import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real OpenAI-compatible judge on 127.0.0.1 for the workerd tests. It grades by markers, so a test
 * knows the exact score every answer must get in every position:
 * - an answer's quality is the `q=N` in its text; the answer the judge sees first gets `bias` more
 *   (capped at the scale's top), so a mix-up of call orders shows in the scores;
 * - the question's `[fault:KIND*N]` makes its first N requests fail that way: `503`, `hang` (never
 *   answered), `garbage` (an unparseable reply), `badjson` (a 200 with a broken body); `*always` for all;
 * - `[hold-after:N]` answers the question's first N requests and holds every later one open until
 *   `POST /release?tag=X` (a judge stuck mid-tournament, for the restart tests);
 * - `[tag:X]` names the question in the log, so parallel tests read only their own calls;
 * - `[group:G]` counts the question's requests with every other question of group G: `GET /stats?group=G`
 *   tells how many were open at once at most (`maxOpen`), as judge-sim's /stats does for the whole server;
 * - `[delay:MS]` answers each request after MS milliseconds (a judge that takes time, so calls overlap);
 *   `[slow:MS]` inside an answer's text delays every call that shows that answer by MS more.
 */
export interface JudgeLogEntry {
  /** Arrival order at this server, over all questions. */
  seq: number;
  /** One clock for arrivals and replies over all questions: `arrived` < `answered` of another call
   * means this call was sent before that one was answered. */
  arrived: number;
  answered: number | null;
  tag: string | null;
  qualities: number[];
  scores: number[];
  outcome: "ok" | "503" | "hang" | "garbage" | "badjson" | "held";
  prompt: string;
}

export interface TestJudge {
  port: number;
  close(): Promise<void>;
}

export async function startTestJudge(options: { bias?: number } = {}): Promise<TestJudge> {
  const bias = options.bias ?? 0.5;
  const log: JudgeLogEntry[] = [];
  const seen = new Map<string, number>();
  const hung: http.ServerResponse[] = [];
  const released = new Set<string>();
  const held = new Map<string, (() => void)[]>();
  let tick = 0;
  const groups = new Map<string, { open: number; maxOpen: number; requests: number }>();

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/log") {
      const tag = url.searchParams.get("tag");
      return send(200, log.filter((e) => tag === null || e.tag === tag));
    }
    if (req.method === "GET" && url.pathname === "/stats") {
      return send(200, groups.get(url.searchParams.get("group") ?? "") ?? { open: 0, maxOpen: 0, requests: 0 });
    }
    if (req.method === "POST" && url.pathname === "/release") {
      const tag = url.searchParams.get("tag") ?? "";
      released.add(tag);
      for (const go of held.get(tag) ?? []) go();
      held.delete(tag);
      return send(200, { released: tag });
    }
    if (req.method === "GET" && url.pathname === "/v1/models") return send(200, { object: "list", data: [{ id: "test-judge", object: "model" }] });
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") return send(404, { error: { message: "not found" } });

    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: { content: string }[]; response_format?: unknown };
      const prompt = body.messages.map((m) => m.content).join("\n");
      const tag = prompt.match(/\[tag:([^\]]+)\]/)?.[1] ?? null;
      const groupName = prompt.match(/\[group:([^\]]+)\]/)?.[1];
      if (groupName !== undefined) {
        const group = groups.get(groupName) ?? { open: 0, maxOpen: 0, requests: 0 };
        groups.set(groupName, group);
        group.requests++;
        group.open++;
        group.maxOpen = Math.max(group.maxOpen, group.open);
        res.on("close", () => group.open--);
      }
      const delay = Number(prompt.match(/\[delay:(\d+)\]/)?.[1] ?? 0) + Math.max(0, ...[...prompt.matchAll(/\[slow:(\d+)\]/g)].map((m) => Number(m[1])));
      const max = Number(prompt.match(/\b0 (?:to|bis) (\d+(?:\.\d+)?)/)?.[1] ?? 10);
      const qualities = [...prompt.matchAll(/\bq=(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
      const scores = qualities.slice(0, 2).map((q, i) => Math.min(max, q + (i === 0 ? bias : 0)));

      const count = (seen.get(tag ?? "") ?? 0) + 1;
      seen.set(tag ?? "", count);
      const fault = prompt.match(/\[fault:(503|hang|garbage|badjson)\*(always|\d+)\]/);
      const faulty = fault && (fault[2] === "always" || count <= Number(fault[2]));
      const holdAfter = prompt.match(/\[hold-after:(\d+)\]/);
      if (holdAfter && count > Number(holdAfter[1]) && !released.has(tag ?? "")) {
        log.push({ seq: log.length, arrived: tick++, answered: null, tag, qualities, scores, outcome: "held", prompt });
        // answered only on release; by then the caller may be long gone, which is the point
        held.set(tag ?? "", [...(held.get(tag ?? "") ?? []), () => res.destroy()]);
        return;
      }
      const outcome = (faulty ? fault[1] : "ok") as JudgeLogEntry["outcome"];
      const entry: JudgeLogEntry = { seq: log.length, arrived: tick++, answered: null, tag, qualities, scores, outcome, prompt };
      log.push(entry);

      if (outcome === "503") return send(503, { error: { message: "engine overloaded", code: 503 } });
      if (outcome === "hang") return void hung.push(res);
      if (outcome === "badjson") return send(200, '{"choices": [{"message": ');
      const label = /Antwort 1/.test(prompt) ? "Antwort" : /Translation 1/.test(prompt) ? "Translation" : "Answer";
      const text =
        outcome === "garbage"
          ? "Both answers have their merits and I would rather not give numbers."
          : qualities.length >= 2
            ? `Explanation: compared the two answers. ${label} 1: ${scores[0]}/${max} ${label} 2: ${scores[1]}/${max}`
            : `Explanation: graded the answer. Score: ${scores[0] ?? 0}/${max}`;
      const reply = {
        id: `chatcmpl-${log.length}`,
        object: "chat.completion",
        model: "test-judge",
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(text.length / 4) },
      };
      const answer = () => {
        entry.answered = tick++;
        send(200, reply);
      };
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
