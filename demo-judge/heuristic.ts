/**
 * The demo judge's grading: transparent and deliberately simple, so a newcomer can grade something in
 * the first minute without a GPU. An answer's score is the F1 overlap of its content words with the
 * reference answer (or, without one, with the question), scaled to the point scale and rounded to half
 * points. It reads the prompts this project writes (fenced answers) and answers in the format they ask.
 * It is not an LLM and says so in every explanation.
 */
// src/judge/feedback-prompt.ts's FEEDBACK_MARK, written out: `npm start` loads this file in Node, which
// cannot follow src/'s extensionless imports (test/unit/demo-judge holds the two equal)
export const FEEDBACK_MARK = "Write feedback for the student";

const STOPWORDS = new Set(
  (
    "a an the and or but of to in on at for by with from as is are was were be been being it its this that these those " +
    "which who what when where how why not no do does did can could will would should may might must has have had " +
    "i you he she we they them their our your my me us der die das und oder ein eine ist sind zu von mit den dem des im"
  ).split(" "),
);

export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((w) => w.length > 1 && !STOPWORDS.has(w)));
}

export function overlapF1(answer: string, target: string): number {
  const a = contentWords(answer);
  const t = contentWords(target);
  if (a.size === 0 || t.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (t.has(w)) shared++;
  if (shared === 0) return 0;
  const precision = shared / a.size;
  const recall = shared / t.size;
  return (2 * precision * recall) / (precision + recall);
}

export interface PromptParts {
  max: number;
  question: string;
  reference: string | null;
  answers: string[];
  label: "Answer" | "Antwort" | "Translation";
  german: boolean;
}

/** The parts of one of this project's prompts. */
export function readPrompt(prompt: string): PromptParts {
  const max = Number(prompt.match(/\b0 (?:to|bis) (\d+(?:\.\d+)?)/)?.[1] ?? 10);
  const field = (names: string[]) => {
    for (const name of names) {
      const m = prompt.match(new RegExp(`^${name}: ([\\s\\S]*?)(?:\\n\\n|$)`, "m"));
      if (m) return m[1];
    }
    return null;
  };
  const answers = [...prompt.matchAll(/^(`{3,})[a-z]*\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]);
  const label =
    /^Antwort 1:/m.test(prompt) || /^Die Antwort:/m.test(prompt)
      ? "Antwort"
      : /^Translation( 1)?:/m.test(prompt)
        ? "Translation"
        : "Answer";
  return {
    max,
    question: field(["The Question", "Die Frage", "Source"]) ?? "",
    reference: field(["The reference answer", "The Reference Answer", "Referenzantwort", "Reference translation"]),
    answers,
    label,
    german: label === "Antwort",
  };
}

const half = (x: number, max: number) => Math.min(max, Math.max(0, Math.round(x * 2) / 2));

export interface Verdict {
  scores: number[];
  explanation: string;
  text: string;
}

/**
 * The feedback for a student (the prompt of src/judge/feedback-prompt.ts): plain text and no score, as
 * that prompt asks; the overlap it scores by, said in words, and the reference's words the answer lacks.
 * In English whatever the answer's language: the feedback prompt is English, and so is this judge.
 */
function feedback(p: PromptParts): string {
  const answer = contentWords(p.answers[0] ?? "");
  const target = [...contentWords(p.reference ?? p.question)];
  const missing = target.filter((w) => !answer.has(w));
  return (
    `Demo judge (not an LLM): your answer shares ${target.length - missing.length} of the ${target.length} content words of ${p.reference !== null ? "the reference answer" : "the question"}.` +
    (missing.length ? ` Words it does not use: ${missing.slice(0, 5).join(", ")}.` : "")
  );
}

/** The judge's reply to a prompt, in the format the prompt asks for. */
export function judge(prompt: string): Verdict {
  const p = readPrompt(prompt);
  if (prompt.includes(FEEDBACK_MARK)) {
    const text = feedback(p);
    return { scores: [], explanation: text, text };
  }
  const target = p.reference ?? p.question;
  const against = p.reference !== null ? "the reference answer" : "the question";
  const f1s = p.answers.map((a) => overlapF1(a, target));
  const scores = f1s.map((f) => half(f * p.max, p.max));
  const detail = f1s.map((f, i) => `answer ${i + 1} overlap ${f.toFixed(2)}`).join(", ");
  const explanation = p.german
    ? `Demo-Bewerter (kein LLM): Wortüberlappung mit ${p.reference !== null ? "der Referenzantwort" : "der Frage"} (${detail}).`
    : `Demo judge (not an LLM): content-word overlap with ${against} (${detail}).`;
  const why = p.german ? "Begründung" : "Explanation";
  let text: string;
  if (p.answers.length >= 2) {
    text = `${why}: ${explanation} ${p.label} 1: ${scores[0]}/${p.max} ${p.label} 2: ${scores[1]}/${p.max}`;
  } else {
    text = `${why}: ${explanation} ${p.german ? "Punktzahl" : "Score"}: ${scores[0] ?? 0}/${p.max}`;
  }
  return { scores, explanation, text };
}
