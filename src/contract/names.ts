// The names the wire takes: what a request may choose and a response may say. The service's modules
// import them from here (a method's core, a template's wording), so a name cannot be known to one
// side only.

/** How an evaluation judges its answers. */
export const METHOD_NAMES = ["knockout", "individual", "pairwise", "round-robin"] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

/** The judge's prompt wording: exams in English or German, or the paper's translation prompts (0..100). */
export const TEMPLATE_NAMES = ["exam", "exam-de", "translation"] as const;
export type Template = (typeof TEMPLATE_NAMES)[number];

/** Bracket: a match starts as soon as its two feeders end; round: the paper's re-pairing per round. */
export const PAIRINGS = ["bracket", "round"] as const;
export type Pairing = (typeof PAIRINGS)[number];

/**
 * "text": the written scores decide; "logprobs": the expected scores from the judge's token
 * probabilities decide, and a reply without them is asked again; "auto": the expected scores where the
 * endpoint gives probabilities, the written ones where it does not.
 */
export const SCORE_SOURCES = ["auto", "text", "logprobs"] as const;
export type ScoreFrom = (typeof SCORE_SOURCES)[number];

/**
 * How a knockout match its scores alone could not decide was decided: "expected" (written match
 * scores equal, expected scores decided), "expected-unheld" (expected scores equal, or equal at a
 * shared cell edge though the written ones differed: the expectations before they were held to their
 * cells decided), "record" (nothing differed: the answer whose earlier rounds' match scores average
 * higher advanced), "position" (nothing told them apart: the paper's rule, the second answer advances).
 */
export const TIE_KINDS = ["expected", "expected-unheld", "record", "position"] as const;
export type Tie = (typeof TIE_KINDS)[number];

/** A knockout's rule for a match nothing split (src/core/types.ts TieBreak). */
export const TIE_BREAKS = ["record", "position"] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

/**
 * Where a knockout's extra calls go (src/core/extra.ts): "widest", to the answers one more match narrows
 * the most, the fewest judgments first; "neighbours", to uncertain answers close to a neighbour.
 */
export const EXTRA_PLACEMENTS = ["widest", "neighbours"] as const;
export type ExtraPlacement = (typeof EXTRA_PLACEMENTS)[number];

/** An evaluation's life: queued at its judge's gate, running, then ended one of three ways. */
/** Feedback for the student: none, or one pointwise judge call per answer after the tournament. */
export const FEEDBACK_MODES = ["none", "judge"] as const;
export type FeedbackMode = (typeof FEEDBACK_MODES)[number];
/** Who wrote the feedback a student reads: the judge, or the teacher who edited it. */
export const FEEDBACK_SOURCES = ["judge", "teacher"] as const;

export const STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type Status = (typeof STATUSES)[number];

export const RATING_SYSTEMS = ["elo", "bradleyTerry", "glicko2", "trueskill"] as const;
export type RatingSystem = (typeof RATING_SYSTEMS)[number];

/** Where an answer's final grade came from: the teacher's grade, the calibrated score, or the judge's. */
export const FINAL_FROM = ["teacher", "calibrated", "judge"] as const;
export type FinalFrom = (typeof FINAL_FROM)[number];

/** A collection's life: open to answers, closed, or failed: closed and could not be graded. */
export const COLLECTION_STATUSES = ["open", "closed", "failed"] as const;

/** A collection's answers reach their students when the teacher releases them, or when grading completes. */
export const RELEASE_MODES = ["manual", "auto"] as const;
export type ReleaseMode = (typeof RELEASE_MODES)[number];

/** What an API key may do, each holding the ones before it (src/contract/key-request.ts). */
export const KEY_SCOPES = ["read", "write", "admin"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * What an audit line records was done: a teacher's grade set or withdrawn, a feedback edited, answers
 * released or the release withdrawn, a key made or revoked, a tenant's setting changed. The erasure
 * routes add theirs here.
 */
export const AUDIT_VERBS = [
  "grade.set",
  "grade.withdraw",
  "feedback.edit",
  "release",
  "release.withdraw",
  "key.create",
  "key.revoke",
  "webhook-secret.rotate",
  "share.create",
  "share.revoke",
  "evaluation.erase",
  "batch.erase",
  "collection.erase",
  "subject.erase",
  "tenant.erase",
  "settings.change",
  "tenant.export",
  "subject.export",
  "lti-platform.register",
  "lti-platform.change",
  "lti-platform.delete",
] as const;
export type AuditVerb = (typeof AUDIT_VERBS)[number];

/**
 * How a panel of judges shares the calls (\`judge.panelMode\`): "cycle", each match to the next judge
 * in turn (one judge's cost); "all", every call to every judge, their scores averaged (the cost times
 * the panel's size).
 */
export const PANEL_MODES = ["cycle", "all"] as const;
export type PanelMode = (typeof PANEL_MODES)[number];
