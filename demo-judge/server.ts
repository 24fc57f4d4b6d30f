// The bundled demo judge: an OpenAI-compatible chat completions server on 127.0.0.1 that grades by the
// heuristic in ./heuristic.ts. `npm start` runs it when no JUDGE_BASE_URL is configured.
//   node demo-judge/server.ts [--port 8788]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { judge } from "./heuristic.ts";

export const DEMO_MODEL = "knockout-demo-judge";

export function startDemoJudge(port = 0): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/health") return send(200, { ok: true });
    if (req.method === "GET" && path === "/v1/models")
      return send(200, { object: "list", data: [{ id: DEMO_MODEL, object: "model", owned_by: "knockout-judge" }] });
    if (req.method !== "POST" || path !== "/v1/chat/completions")
      return send(404, { error: { message: `no route ${req.method} ${path}` } });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: { messages?: { content?: unknown }[]; response_format?: { type?: string } };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(400, { error: { message: "body is not JSON", type: "BadRequestError" } });
      }
      if (!Array.isArray(body.messages)) return send(400, { error: { message: "messages is required", type: "BadRequestError" } });
      const prompt = body.messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
      const verdict = judge(prompt);
      const structured = body.response_format?.type === "json_schema";
      const content = structured
        ? JSON.stringify(
            verdict.scores.length >= 2
              ? { explanation: verdict.explanation, answer_1: verdict.scores[0], answer_2: verdict.scores[1] }
              : { explanation: verdict.explanation, score: verdict.scores[0] ?? 0 },
          )
        : verdict.text;
      const promptTokens = Math.ceil(prompt.length / 4);
      const completionTokens = Math.ceil(content.length / 4);
      send(200, {
        id: `chatcmpl-demo-${Date.now()}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: DEMO_MODEL,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      });
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (import.meta.main) {
  const i = process.argv.indexOf("--port");
  const server = await startDemoJudge(i > 0 ? Number(process.argv[i + 1]) : 8788);
  console.log(`demo judge listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
}
