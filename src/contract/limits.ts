// The sizes the service accepts, as numbers a client can check before it sends.

/** A webhook URL's length at most; what a URL may point at is the service's policy (src/webhooks/url.ts). */
export const maxWebhookUrlChars = 2_048;

export const limits = {
  minAnswers: 2,
  maxAnswers: 256,
  maxAnswerIdLength: 200,
  maxAnswerChars: 20_000,
  maxQuestionChars: 20_000,
  maxScore: 10_000,
  /** Round-robin makes N(N-1) calls debiased: 64 answers are 4,032 calls; 256 would be 65,280. */
  maxRoundRobinAnswers: 64,
  maxCriteria: 20,
  maxGradeBoundaries: 20,
  maxExamineeLength: 200,
  /** A request body larger than this is refused with 413 before it is read (256 answers of 20,000 characters fit). */
  maxBodyBytes: 8 * 1024 * 1024,
  /** For batches: questions in one batch. */
  maxBatchQuestions: 1_000,
  maxWebhookUrlChars,
  maxMetadataBytes: 16 * 1024,
  /** Levels of objects and arrays in metadata: a JSON object nested 8,000 deep fits in 16 KiB. */
  maxMetadataDepth: 32,
  /** Page size of GET /v1/evaluations. */
  defaultPageSize: 20,
  maxPageSize: 100,
  /**
   * Active (neither revoked nor expired) API keys of one tenant, past which it may make no more for
   * itself (POST /v1/tenant/keys is a 409): each key has its own rate limit, stream cap and read
   * budget, so keys made without bound would multiply them. Every active key counts, whoever made it;
   * the operator's POST /v1/keys and an instructor's LTI launch are never refused for it.
   */
  maxActiveKeysPerTenant: 100,
} as const;

export const collectionLimits = {
  /** A submitted answer; shorter than what the API takes, since anyone may submit. */
  maxSubmissionChars: 5_000,
  maxNameChars: 100,
  maxOrigins: 20,
  /** How far ahead a closing deadline may be: a collection is a course's question, not an archive. */
  maxDeadlineDays: 365,
} as const;

export const ratingLimits = {
  maxGames: 100_000,
  /**
   * Players in one rating, given as `outcomes` or named in `games`: the transitivity check keeps a
   * players x players table and walks its triples (8,000 players took 17.6 s and 546 MB).
   */
  maxPlayers: 500,
  maxInstances: 100_000,
  /**
   * With `outcomes`: instances looked at to build the games, each pair's shared instances once (pairs x
   * the longest list) plus each match's draw (games x min(matchSize, the longest list)). Building the
   * games was not counted by maxGameSamples: 100,000 matches of one instance took 28 s when each match
   * looked at every shared instance.
   */
  maxOutcomeLookups: 10_000_000,
  maxSamples: 2_000,
  /**
   * Games x bootstrap samples: every sample re-rates every game with each system. About 5 us a game
   * for the four on a shared core: the most a request asks is about 5 s of CPU, which a Worker's limit
   * allows and which holds up a local service's other requests no longer than that.
   */
  maxGameSamples: 1_000_000,
  /**
   * The work all of a request's Bradley-Terry fits may do together, in pairs and players visited
   * (src/ratings/bradley-terry.ts: about 30 ns each here, so about 3 s); a fit that runs out says it
   * did not converge. The bootstrap samples share half, and a request gets no more samples than can
   * each afford three steps (src/api/ratings.ts).
   */
  bradleyTerryWork: 100_000_000,
} as const;

/** A teacher's note on a grade. */
export const maxGradeNoteChars = 2_000;
