import http from "node:http";
import type { AddressInfo } from "node:net";
import { seededRandom } from "../../src/random/seeded";
import { FEEDBACK_MARK } from "../../src/judge/feedback-prompt";

/**
 * A real OpenAI-compatible judge on 127.0.0.1 for the workerd tests. It grades by markers, so a test
 * knows the exact score every answer must get in every position:
 * - an answer's quality is the `q=N` in its text (half the scale without one); the answer the judge sees first gets `bias` more
 *   (capped at the scale's top), so a mix-up of call orders shows in the scores;
 * - the question's `[fault:KIND*N]` makes its first N requests fail that way: `503`, `400` (a request
 *   the judge refuses), `hang` (never answered), `garbage` (an unparseable reply), `badjson` (a 200 with
 *   a broken body); `*always` for all;
 * - `[hold-after:N]` answers the question's first N requests and holds every later one open until
 *   `POST /release?tag=X` (a judge stuck mid-tournament, for the restart tests);
 * - with a JSON schema (`response_format`), the reply is a JSON object in it: pairwise and pointwise
 *   schemas get the scores above; any other (a rubric) is filled in with the first answer's score for
 *   every number, capped at that number's `maximum`, and a short text for every string;
 * - `[faults:503=P,garbage=P,hang=P,seed=N]` draws each request's fate from a PRNG seeded by N, the
 *   prompt without its tag and how many times that prompt was asked before under its tag, so a run of
 *   random faults is the same every time, whatever order the calls arrive in and whatever the tag;
 * - `[echo]` quotes the whole prompt back (answers and all, injections included) before its own verdict
 *   (in the `explanation` field under structured outputs);
 * - a feedback prompt (src/judge/feedback-prompt.ts: it says FEEDBACK_MARK) gets plain text naming the
 *   answer's quality ("Feedback: Your answer is at quality 7 of 10. …"), never a score format; `[feedback-fail]` in
 *   the answer makes its feedback call a 400 (refused, as a context overflow is), every time, and
 *   `[feedback-503]` a 503 every time (retried until JUDGE_DEADLINE_MS);
 *   `[feedback-markup]` makes the feedback carry a <script> element and a link, as a judge that
 *   writes markup would; the log marks these calls `feedback: true`;
 * - `[tag:X]` names the question in the log, so parallel tests read only their own calls;
 * - `[group:G]` counts the question's requests with every other question of group G: `GET /stats?group=G`
 *   tells how many were open at once at most (`maxOpen`), as judge-sim's /stats does for the whole server;
 * - its /v1/models lists one model ("test-judge", or as `serve` sets it), under any path prefix, and
 *   every reply names the model asked for (else that one) in `model` (in each chunk of a stream too); `[fingerprint:X]` adds
 *   `system_fingerprint: "X"`, as OpenAI's endpoints report their backend's revision;
 * - the request's `seed` is logged; `[seed-noise:N]` moves each score (and belief) by a whole number
 *   from -N to N drawn from a PRNG seeded by the request's seed and the answer's place, capped to the
 *   scale: a sampling judge, whose replies the same seed repeats and another seed changes;
 * - any path that ends in `/v1/chat/completions` is the judge, so a test can have an endpoint of its own
 *   (`http://127.0.0.1:PORT/NAME/v1`), and with it a JudgeGate of its own (there is one per base URL);
 * - `POST /tokenize` (vLLM's, at the root) counts a prompt's tokens as its characters / 3, counted in
 *   the prompt's `[group:G]` and delayed by its `[delay:MS]` like a judge call;
 * - `[delay:MS]` answers each request after MS milliseconds (a judge that takes time, so calls overlap);
 *   `[slow:MS]` inside an answer's text delays every call that shows that answer by MS more;
 * - asked for `logprobs`, it returns `choices[0].logprobs.content` as vLLM does: tokens that spell the
 *   reply exactly (digit runs alone, so a score's integer part is one token), each with `top_logprobs`.
 *   At a score's integer part the judge's belief is the answer's `b=N`, written right after its `q=N`
 *   (its `q` without one, so the expectation is the written score), plus the first position's bias: two integers around it, weighted
 *   so that their mean is the belief. `[no-logprobs]` in the question leaves `logprobs` null, as an
 *   endpoint without them does; `[parse-once]` makes the first reply to each call unreadable.
 * - asked to `stream`, it answers as vLLM does: the headers at once (while the request is held or
 *   delayed), then one `chat.completion.chunk` per token (a score's "3", "." and "5" apart), a usage
 *   chunk when `stream_options.include_usage` is set, and `data: [DONE]`; the body is written in
 *   pieces of a few hundred bytes, so reads split inside events. `[drip-ms:N]` writes it a few bytes
 *   at a time instead, N ms apart (0: as fast as it goes), so reads split inside UTF-8 characters and
 *   inside scores too: a test about reading streams asks for it; every other call is spared the
 *   hundreds of writes (and reads) per reply that made the 255 calls of a large evaluation take 40 s.
 *   `[stall-once]` stops the first stream of each call after a few chunks and sends nothing more;
 *   `[cut-once]` ends it there, without its last chunk.
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
  outcome: "ok" | "503" | "400" | "hang" | "garbage" | "badjson" | "held";
  prompt: string;
  model: string;
  temperature: number;
  /** Whether the request asked for structured output (a JSON schema). */
  structured: boolean;
  /** A feedback call (src/judge/feedback-prompt.ts), not a grading one. */
  feedback: boolean;
  /** Requests of this tag open at the judge when this one arrived, itself included. */
  open: number;
  /** vLLM's `priority` field, when the request carried one. */
  priority?: number;
  /** The request's sampling `seed`, when it carried one. */
  seed?: number;
  /** The request's `max_tokens`. */
  maxTokens?: number;
  /** The request's Authorization header, when it had one. */
  authorization?: string;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export interface TestJudge {
  port: number;
  close(): Promise<void>;
  /**
   * Down, until `start`: every reply under way breaks off (a stream ends without its last chunk, a
   * reply not yet begun is a 503) and every new request, /v1/models included, is a 503. Not a closed
   * port: workerd reports every refused connection as an "uncaught exception", caught or not, and
   * the tests' output stays clean; the judge-sims of `npm run bench -- --only pool` are killed for real.
   */
  stop(): Promise<void>;
  /** Up again. */
  start(): Promise<void>;
  /** The model its /v1/models lists from now on. */
  serve(model: string): void;
}

/**
 * `bias`: what the first answer shown gets more; `model`: what /v1/models lists; `reverse`: a judge that
 * disagrees, grading each answer at the scale's top minus its quality (a panel's odd one out).
 */
export async function startTestJudge(options: { bias?: number; model?: string; reverse?: boolean } = {}): Promise<TestJudge> {
  const bias = options.bias ?? 0.5;
  let model = options.model ?? "test-judge";
  let down = false;
  /** Replies under way, for `stop` to break off. */
  const underway = new Set<http.ServerResponse>();
  const log: JudgeLogEntry[] = [];
  const seen = new Map<string, number>();
  const hung: http.ServerResponse[] = [];
  const released = new Set<string>();
  const held = new Map<string, (() => void)[]>();
  const open = new Map<string, number>();
  /** Times each faulty prompt was asked, for its next fate's draw. */
  const fates = new Map<string, number>();
  let tick = 0;
  const groups = new Map<string, { open: number; maxOpen: number; requests: number }>();
  const askedBefore = new Set<string>();
  const streamedBefore = new Set<string>();

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (down && url.pathname.includes("/v1/")) return send(503, { error: { message: "the judge is down", code: 503 } });
    underway.add(res);
    res.on("close", () => underway.delete(res));
    if (req.method === "GET" && url.pathname === "/log") {
      const tag = url.searchParams.get("tag");
      return send(
        200,
        log.filter((e) => tag === null || e.tag === tag),
      );
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
    if (req.method === "POST" && url.pathname === "/tokenize") {
      // vLLM's tokenizer route at the server's root; this one counts three characters a token
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const prompt = String(JSON.parse(Buffer.concat(chunks).toString("utf8")).prompt ?? "");
        // a request to the judge like any other: counted in its question's group, and delayed as asked
        const groupName = prompt.match(/\[group:([^\]]+)\]/)?.[1];
        if (groupName !== undefined) {
          const group = groups.get(groupName) ?? { open: 0, maxOpen: 0, requests: 0 };
          groups.set(groupName, group);
          group.requests++;
          group.open++;
          group.maxOpen = Math.max(group.maxOpen, group.open);
          res.on("close", () => group.open--);
        }
        const answer = () => send(200, { count: Math.ceil(prompt.length / 3), max_model_len: 8192, tokens: [] });
        const delay = Number(prompt.match(/\[delay:(\d+)\]/)?.[1] ?? 0);
        if (delay > 0) setTimeout(answer, delay);
        else answer();
      });
      return;
    }
    if (req.method === "GET" && url.pathname.endsWith("/v1/models"))
      return send(200, { object: "list", data: [{ id: model, object: "model" }] });
    if (req.method !== "POST" || !url.pathname.endsWith("/v1/chat/completions")) return send(404, { error: { message: "not found" } });

    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        messages: { content: string }[];
        model: string;
        temperature: number;
        response_format?: { json_schema?: { schema?: JsonSchema } };
        logprobs?: boolean;
        top_logprobs?: number;
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
        priority?: number;
        seed?: number;
        max_tokens?: number;
      };
      const streamed = body.stream === true;
      // vLLM sends a streamed request's headers at once, before the request has a slot
      const streamHeaders = () => {
        if (res.headersSent) return;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.flushHeaders();
      };
      const schema = body.response_format?.json_schema?.schema;
      const structured = schema !== undefined;
      const asked = {
        model: body.model,
        temperature: body.temperature,
        ...(typeof body.priority === "number" ? { priority: body.priority } : {}),
        ...(typeof body.seed === "number" ? { seed: body.seed } : {}),
        ...(typeof body.max_tokens === "number" ? { maxTokens: body.max_tokens } : {}),
      };
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
      const delay =
        Number(prompt.match(/\[delay:(\d+)\]/)?.[1] ?? 0) +
        Math.max(0, ...[...prompt.matchAll(/\[slow:(\d+)\]/g)].map((m) => Number(m[1])));
      const max = Number(prompt.match(/\b0 (?:to|bis) (\d+(?:\.\d+)?)/)?.[1] ?? 10);
      const marked = [...prompt.matchAll(/\bq=(\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
      // answers without markers (the README's examples, replayed) are of middling quality: half the scale
      const shown = /(?:Answer|Antwort|Translation) 2\b/.test(prompt) ? 2 : 1;
      const qualities = (
        marked.length > 0
          ? marked
          : Array.from({ length: shown }, () => Math.floor(Number(prompt.match(/\b0 (?:to|bis) (\d+(?:\.\d+)?)/)?.[1] ?? 10) / 2))
      ).map((q) => (options.reverse ? max - q : q));
      // [seed-noise:N]: the same seed draws the same offsets, another seed others
      const noiseSpan = Number(prompt.match(/\[seed-noise:(\d+)\]/)?.[1] ?? 0);
      const noiseDraw = seededRandom(hash(`noise|${body.seed ?? "none"}`)).next;
      const noise = [0, 1].map(() => (noiseSpan > 0 ? Math.floor(noiseDraw() * (2 * noiseSpan + 1)) - noiseSpan : 0));
      const noisy = (v: number, i: number) => Math.max(0, Math.min(max, v + noise[i]));
      const scores = qualities.slice(0, 2).map((q, i) => noisy(Math.min(max, q + (i === 0 ? bias : 0)), i));
      // the judge's belief per answer shown: its b=N where the answer has one, else its quality
      const beliefs = [...prompt.matchAll(/\bq=(\d+(?:\.\d+)?)(?: b=(\d+(?:\.\d+)?))?/g)]
        .slice(0, 2)
        .map((m, i) =>
          noisy(Math.min(max, (options.reverse ? max - Number(m[2] ?? m[1]) : Number(m[2] ?? m[1])) + (i === 0 ? bias : 0)), i),
        );

      const openNow = (open.get(tag ?? "") ?? 0) + 1;
      open.set(tag ?? "", openNow);
      res.on("close", () => open.set(tag ?? "", (open.get(tag ?? "") ?? 1) - 1));
      const count = (seen.get(tag ?? "") ?? 0) + 1;
      seen.set(tag ?? "", count);
      const fault = prompt.match(/\[fault:(503|400|hang|garbage|badjson)\*(always|\d+)\]/);
      const faulty = fault && (fault[2] === "always" || count <= Number(fault[2]));
      const random = prompt.match(/\[faults:([^\]]+)\]/);
      let drawn: JudgeLogEntry["outcome"] | null = null;
      if (random) {
        const p = Object.fromEntries(random[1].split(",").map((kv) => kv.split("=") as [string, string]));
        // drawn per prompt and attempt, not in arrival order: which call meets which fault must not
        // depend on how the calls interleave, or a change of timing changes the test's faults
        // counted per tag, drawn without it: a test's unique tag differs from run to run, its faults do not
        const key = `${p.seed ?? 1}|${tag ?? ""}|${prompt}`;
        const nth = fates.get(key) ?? 0;
        fates.set(key, nth + 1);
        const u = seededRandom(hash(`${p.seed ?? 1}|${prompt.replace(/\[tag:[^\]]*\]/g, "")}|${nth}`)).next();
        const [p503, pGarbage, pHang] = [Number(p["503"] ?? 0), Number(p.garbage ?? 0), Number(p.hang ?? 0)];
        drawn = u < p503 ? "503" : u < p503 + pGarbage ? "garbage" : u < p503 + pGarbage + pHang ? "hang" : null;
      }
      const holdAfter = prompt.match(/\[hold-after:(\d+)\]/);
      if (holdAfter && count > Number(holdAfter[1]) && !released.has(tag ?? "")) {
        log.push({
          seq: log.length,
          arrived: tick++,
          answered: null,
          tag,
          qualities,
          scores,
          outcome: "held",
          prompt,
          structured,
          feedback: prompt.includes(FEEDBACK_MARK),
          open: openNow,
          ...asked,
        });
        // answered only on release; by then the caller may be long gone, which is the point
        if (streamed) streamHeaders();
        // a streamed one ends short of its last chunk (a broken reply to the caller, as a reset is, but a
        // reset body makes workerd print a stack trace even when the caller catches it); one not yet
        // answered has its connection dropped
        held.set(tag ?? "", [...(held.get(tag ?? "") ?? []), () => (res.headersSent ? res.end() : res.destroy())]);
        return;
      }
      const feedbackCall = prompt.includes(FEEDBACK_MARK);
      const parseOnce = /\[parse-once\]/.test(prompt) && !askedBefore.has(prompt);
      askedBefore.add(prompt);
      const refusedFeedback = feedbackCall && prompt.includes("[feedback-fail]");
      const downForFeedback = feedbackCall && prompt.includes("[feedback-503]");
      const outcome = (
        refusedFeedback ? "400" : downForFeedback ? "503" : faulty ? fault[1] : (drawn ?? (parseOnce ? "garbage" : "ok"))
      ) as JudgeLogEntry["outcome"];
      const entry: JudgeLogEntry = {
        seq: log.length,
        arrived: tick++,
        answered: null,
        tag,
        qualities,
        scores,
        outcome,
        prompt,
        structured,
        feedback: feedbackCall,
        open: openNow,
        ...asked,
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      };
      log.push(entry);

      if (outcome === "503") return send(503, { error: { message: "engine overloaded", code: 503 } });
      if (outcome === "400")
        return send(400, { error: { message: "This model's maximum context length is 4096 tokens", type: "BadRequestError", code: 400 } });
      if (outcome === "hang") {
        if (streamed) streamHeaders();
        return void hung.push(res);
      }
      if (outcome === "badjson") return send(200, '{"choices": [{"message": ');
      const label = /Antwort 1/.test(prompt) ? "Antwort" : /Translation 1/.test(prompt) ? "Translation" : "Answer";
      const echo = /\[echo\]/.test(prompt);
      const explanation = (what: string) => (echo ? `You asked me:\n${prompt}\n\nI ${what}.` : what);
      const feedbackText = prompt.includes("[feedback-markup]")
        ? 'Feedback: <script>alert("feedback")</script> Read <a href="https://evil.example/">this page</a> and https://evil.example/x.'
        : `Feedback: Your answer is at quality ${qualities[0] ?? 0} of ${max}. Say more about the main point of the question.`;
      const verdict = feedbackCall
        ? outcome === "garbage"
          ? ""
          : feedbackText
        : outcome === "garbage"
          ? "Both answers have their merits and I would rather not give numbers."
          : structured
            ? JSON.stringify(
                schema?.properties?.answer_1
                  ? { explanation: explanation("compared the two answers"), answer_1: scores[0], answer_2: scores[1] }
                  : schema?.properties?.score
                    ? { explanation: explanation("graded the answer"), score: scores[0] ?? 0 }
                    : fill(schema ?? {}, scores[0] ?? 0),
              )
            : qualities.length >= 2
              ? `Explanation: compared the two answers. ${label} 1: ${scores[0]}/${max} ${label} 2: ${scores[1]}/${max}`
              : `Explanation: graded the answer. Score: ${scores[0] ?? 0}/${max}`;
      // a judge that repeats what it was shown, injected verdicts included, before giving its own; under
      // structured outputs the endpoint holds it to the schema, so the quote goes in the explanation
      const text = echo && outcome !== "garbage" && !structured ? `You asked me:\n${prompt}\n\nMy verdict:\n${verdict}` : verdict;
      const fingerprint = prompt.match(/\[fingerprint:([^\]]+)\]/)?.[1];
      // as vLLM does, the reply names the model asked for (a panel's member), else the one it serves
      const named = { model: body.model || model, ...(fingerprint ? { system_fingerprint: fingerprint } : {}) };
      const reply = {
        id: `chatcmpl-${log.length}`,
        object: "chat.completion",
        ...named,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: text },
            logprobs: body.logprobs && !/\[no-logprobs\]/.test(prompt) ? { content: tokenLogprobs(text, beliefs, max) } : null,
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(text.length / 4) },
      };
      // [drip-ms:N]: a streamed reply a few bytes at a time, N ms apart (a judge that writes slowly)
      const drip = prompt.match(/\[drip-ms:(\d+)\]/)?.[1];
      const dripMs = Number(drip ?? 0);
      const firstTry = !streamedBefore.has(prompt);
      streamedBefore.add(prompt);
      const answer = () => {
        if (res.writableEnded) return; // broken off by `stop`
        entry.answered = tick++;
        if (!streamed) return send(200, reply);
        const tokens = reply.choices[0].logprobs?.content ?? (text.match(/\d+|\D{1,7}/g) ?? []).map((token) => ({ token }));
        const events = tokens.map(
          (t) =>
            `data: ${JSON.stringify({
              object: "chat.completion.chunk",
              ...named,
              choices: [{ index: 0, delta: { content: t.token }, ...(reply.choices[0].logprobs ? { logprobs: { content: [t] } } : {}) }],
            })}\n\n`,
        );
        events.push(
          `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`,
        );
        if (body.stream_options?.include_usage) events.push(`data: ${JSON.stringify({ choices: [], usage: reply.usage })}\n\n`);
        events.push("data: [DONE]\n\n");
        const broken = firstTry && /\[(stall|cut)-once\]/.test(prompt) ? (prompt.includes("[stall-once]") ? "stall" : "cut") : null;
        const bytes = Buffer.from(broken ? events.slice(0, 3).join("") : events.join(""), "utf8");
        streamHeaders();
        // in pieces of uneven size, so the client's reads split anywhere: a few bytes each with [drip-ms:N]
        let at = 0;
        const write = () => {
          if (res.destroyed || res.writableEnded) return;
          const size = drip === undefined ? 64 + ((at * 7919) % 512) : 1 + ((at * 7919) % 23);
          const piece = bytes.subarray(at, at + size);
          at += piece.length;
          if (piece.length > 0) res.write(piece);
          if (at < bytes.length) return void (dripMs > 0 ? setTimeout(write, dripMs) : setImmediate(write));
          if (broken === "stall") return void hung.push(res);
          // ended cleanly, short of its last chunk: a reset body makes workerd print a stack trace even
          // when the client catches it (test/unit/judge/connection-reset.test.ts covers a reset)
          if (broken === "cut") return void res.end();
          res.end();
        };
        write();
      };
      if (streamed) streamHeaders();
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    stop: async () => {
      down = true;
      for (const res of underway) {
        if (res.headersSent) res.end();
        else {
          res.writeHead(503, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "the judge is down", code: 503 } }));
        }
      }
      hung.length = 0;
    },
    start: async () => {
      down = false;
    },
    serve: (id) => {
      model = id;
    },
  };
}

/**
 * The reply as tokens with their alternatives: digit runs alone, everything else in runs of non-digits.
 * The k-th number written after a "1:"/"2:"-style label or a "score" key is the k-th score, whose
 * integer part gets two alternatives around the belief; every other token is sure of itself.
 */
function tokenLogprobs(text: string, beliefs: number[], max: number) {
  const tokens = text.match(/\d+|\D+/g) ?? [];
  const scorePositions = scoreStarts(text);
  const out: { token: string; logprob: number; top_logprobs: { token: string; logprob: number }[] }[] = [];
  let at = 0;
  for (const token of tokens) {
    const k = scorePositions.indexOf(at);
    if (k >= 0 && /^\d+$/.test(token) && beliefs[k] !== undefined) {
      const belief = Math.max(0, Math.min(max, beliefs[k]));
      const low = Math.min(Math.floor(belief), Math.floor(max));
      const high = Math.min(low + 1, Math.floor(max));
      const pHigh = high === low ? 0 : belief - low;
      const alternatives = [
        ...(pHigh < 1 ? [{ token: String(low), logprob: Math.log(1 - pHigh) }] : []),
        ...(pHigh > 0 ? [{ token: String(high), logprob: Math.log(pHigh) }] : []),
      ];
      const own = alternatives.find((a) => a.token === token) ?? { token, logprob: Math.log(1e-9) };
      out.push({ token, logprob: own.logprob, top_logprobs: alternatives });
    } else out.push({ token, logprob: 0, top_logprobs: [{ token, logprob: 0 }] });
    at += token.length;
  }
  return out;
}

/** Where the reply's verdict numbers start (character offsets; the replies here are ASCII). */
function scoreStarts(text: string): number[] {
  const verdict = text.lastIndexOf("My verdict:") >= 0 ? text.lastIndexOf("My verdict:") : 0;
  const starts: number[] = [];
  const re = /(?:(?:Answer|Antwort|Translation) [12]: |Score: |"answer_[12]":|"score":)(\d+)/g;
  re.lastIndex = verdict;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index + m[0].length - m[1].length);
  return starts;
}

interface JsonSchema {
  type?: string;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
}

function fill(schema: JsonSchema, score: number): unknown {
  if (schema.type === "object") return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, fill(v, score)]));
  if (schema.type === "number" || schema.type === "integer") return Math.min(schema.maximum ?? Infinity, score);
  return "graded against the criteria";
}
