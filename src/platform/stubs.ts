import { readConfig } from "./config";

/**
 * The service's Durable Objects by the name each is known by: the one place an object's name is
 * chosen (`idFromName`), so a route, a Durable Object and a test reach the same object the same way.
 * The stubs are typed through the generated `Env`, so nothing here imports a Durable Object's code.
 */

/** One evaluation's tournament, named by the evaluation's id. */
export function tournamentStub(env: Env, evaluationId: string) {
  return env.TOURNAMENT.get(env.TOURNAMENT.idFromName(evaluationId));
}

/**
 * The gate of the judge pool (its admission queue, and each endpoint's cap and health), named by the
 * pool's key: the base URL for a pool of one, as the gate of one endpoint always was.
 */
export function judgeGateStub(env: Env, key: string = readConfig(env).pool?.key ?? "") {
  return env.JUDGE_GATE.get(env.JUDGE_GATE.idFromName(key));
}

/** One collection, the single writer of its submissions, named by the collection's id. */
export function collectionStub(env: Env, collectionId: string) {
  return env.COLLECTION.get(env.COLLECTION.idFromName(collectionId));
}

/** A tenant's webhook queue and delivery log. */
export function webhookQueueStub(env: Env, tenant: string) {
  return env.WEBHOOKS.get(env.WEBHOOKS.idFromName(`tenant:${tenant}`));
}

/** The rate limiter of one API key, named by the key's hash. */
export function rateLimiterStub(env: Env, keyHash: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyHash));
}

/** One collection's grade passback queue (LTI scores) and its delivery log, named by the collection's id. */
export function ltiScoresStub(env: Env, collectionId: string) {
  return env.LTI_SCORES.get(env.LTI_SCORES.idFromName(`collection:${collectionId}`));
}
