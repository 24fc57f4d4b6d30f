// The dataset schema of the evaluation data (one question per JSON line):
//   {"question_id", "question", "reference"?, "max_score", "min_score", ...,
//    "answers": [{"id", "text", "human_score", "examinee"?, ...}]}
// Pure: text in, questions out, with the line number in every error.

export interface DatasetAnswer {
  id: string;
  text: string;
  humanScore: number;
  examinee?: string;
  /** A teacher's own grade of the answer, where the dataset has one: the report gives the judge's agreement with it. */
  teacherScore?: number;
}

export interface DatasetQuestion {
  questionId: string;
  question: string;
  reference?: string;
  maxScore: number;
  minScore: number;
  /** A translation dataset (it names source and target languages): graded with the translation prompts. */
  translation: boolean;
  /** Left out in published work (Mohler's six flagged questions). */
  ignored: boolean;
  answers: DatasetAnswer[];
}

export function parseDataset(text: string): DatasetQuestion[] {
  const questions: DatasetQuestion[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const where = `line ${i + 1}`;
    let raw: any;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new Error(`${where}: not valid JSON (${(err as Error).message})`);
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error(`${where}: expected a JSON object`);
    const questionId = raw.question_id === undefined ? undefined : String(raw.question_id);
    if (!questionId) throw new Error(`${where}: question_id is missing`);
    if (seen.has(questionId)) throw new Error(`${where}: question_id ${questionId} appears twice`);
    seen.add(questionId);
    if (typeof raw.question !== "string" || raw.question.trim() === "") throw new Error(`${where}: question must be a non-empty string`);
    if (!Array.isArray(raw.answers)) throw new Error(`${where}: answers must be an array`);
    const ids = new Set<string>();
    const answers = raw.answers.map((a: any, k: number): DatasetAnswer => {
      const at = `${where}: answers[${k}]`;
      if (a === null || typeof a !== "object") throw new Error(`${at}: expected an object`);
      const id = a.id === undefined || a.id === null ? "" : String(a.id);
      if (id === "") throw new Error(`${at}: id is missing`);
      if (ids.has(id)) throw new Error(`${at}: id ${id} appears twice in question ${questionId}`);
      ids.add(id);
      if (typeof a.text !== "string") throw new Error(`${at}: text must be a string`);
      if (typeof a.human_score !== "number" || !Number.isFinite(a.human_score)) throw new Error(`${at}: human_score must be a number`);
      return {
        id,
        text: a.text,
        humanScore: a.human_score,
        ...(typeof a.examinee === "string" && a.examinee !== "" ? { examinee: a.examinee } : {}),
        ...(typeof a.teacher_score === "number" && Number.isFinite(a.teacher_score) ? { teacherScore: a.teacher_score } : {}),
      };
    });
    questions.push({
      questionId,
      question: raw.question,
      ...(typeof raw.reference === "string" && raw.reference.trim() !== "" ? { reference: raw.reference } : {}),
      maxScore: Number(raw.max_score),
      minScore: Number(raw.min_score),
      translation: typeof raw.source_lang === "string" && typeof raw.target_lang === "string",
      ignored: raw.ignored_in_published_work === true,
      answers,
    });
  });
  return questions;
}

export type ExamineeMode = "auto" | "id" | "field" | "none";

/**
 * Who wrote each answer, for the exam level. `field`: the answers' own `examinee`; `id`: the answer id
 * (WMT: the id is the MT system); `auto`: the field where answers have one, else the id when ids recur
 * across questions (the same system or student answering every question), else nobody.
 */
export function withExaminees(questions: DatasetQuestion[], mode: ExamineeMode): DatasetQuestion[] {
  const idsRecur = () => {
    const seen = new Set<string>();
    for (const q of questions)
      for (const a of q.answers)
        if (seen.has(a.id)) return true;
        else seen.add(a.id);
    return false;
  };
  const hasField = questions.some((q) => q.answers.some((a) => a.examinee !== undefined));
  const effective = mode === "auto" ? (hasField ? "field" : idsRecur() ? "id" : "none") : mode;
  return questions.map((q) => ({
    ...q,
    answers: q.answers.map(({ examinee, ...a }) =>
      effective === "id" ? { ...a, examinee: a.id } : effective === "field" && examinee !== undefined ? { ...a, examinee } : a,
    ),
  }));
}

/** A dataset's column name in Table 1: its file name without the folder and the extension. */
export function datasetName(file: string): string {
  return file.replace(/^.*[\\/]/, "").replace(/\.jsonl?$/i, "");
}
