import { ProblemError } from "../platform/problems";

/**
 * `GET /v1/evaluations/:id?exclude=texts` leaves out the texts, which are most of a large result (256
 * answers of 5,000 characters are 1.3 MB): each answer's `text` and each judge call's `raw` words. The
 * default stays the whole result, so the web pages, the typed client and the CLI read what they did.
 */
export function textsWanted(exclude: string | undefined): boolean {
  if (exclude === undefined || exclude === "") return true;
  if (exclude === "texts") return false;
  throw ProblemError.fields([{ field: "exclude", reason: 'must be "texts" (or absent)' }]);
}

interface WithTexts {
  answers: { text?: string }[];
  matches: { calls: { raw?: string }[] }[];
}

/** The result without its texts (see textsWanted); everything else as it was. */
export function withoutTexts<V extends WithTexts>(view: V): V {
  return {
    ...view,
    answers: view.answers.map(({ text: _, ...a }) => a),
    matches: view.matches.map((m) => ({ ...m, calls: m.calls.map(({ raw: _, ...c }) => c) })),
  };
}
