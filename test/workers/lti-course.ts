import { env } from "cloudflare:workers";
import { database } from "../../src/db/database";
import { bindLtiLearner, bindLtiLink } from "./lti-bindings";
import type { ReceivedScore, ScoreFault } from "../support/lti-services";
import { newKey, request, uniqueTag, until } from "./helpers";
import { platformUrl, registerPlatform } from "./lti-helpers";

const SITE = "https://course.example";
export const ALL_SCOPES = [
  "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
  "https://purl.imsglobal.org/spec/lti-ags/scope/score",
  "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
];

/** What the test platform's services received (test/support/lti-services.ts). */
export async function received(tag: string): Promise<{
  tokenRequests: { scope: string; answered: number }[];
  tokens: string[];
  scores: ReceivedScore[];
  membershipReads: number;
}> {
  return (await fetch(`${platformUrl(tag)}/services`)).json();
}

export async function setUpServices(
  tag: string,
  setup: { faults?: ScoreFault[]; roster?: Record<string, unknown>[]; pageSize?: number; tokenExpiresIn?: number; rosterDelayMs?: number },
) {
  await fetch(`${platformUrl(tag)}/services-setup`, { method: "POST", body: JSON.stringify(setup) });
}

/** The scores the platform took (2xx), each body. */
export const taken = (scores: ReceivedScore[]) => scores.filter((s) => s.answered === 200).map((s) => s.body);

/**
 * A course on its own test platform: the platform registered by the tenant, the tool's public keys
 * registered with the platform (as its admin would), and a collection placed in the course as deep
 * linking and the launches will place it: its link (a line item, the scopes, the roster's URL) and one
 * learner (`learner-<i>`) bound to each answer. The collection is answered, closed and graded through
 * the API; with `bindBeforeGrading` (a collection released automatically) the learners are bound first.
 */
export async function linkedCollection(
  name: string,
  options: { qualities: number[]; release?: "manual" | "auto"; scopes?: string[] | null; lineItemUrl?: string | null } = {
    qualities: [3, 8, 5],
  },
) {
  const tag = uniqueTag(name);
  const tenant = uniqueTag(`lti-${name}`);
  const key = await newKey(tenant, ["read", "write", "admin"]);
  const platform = await registerPlatform(key, tag);
  const jwks = await request("GET", "/lti/jwks");
  await fetch(`${platformUrl(tag)}/tool-jwks`, { method: "POST", body: JSON.stringify(jwks.json) });
  const collection = (
    await request("POST", "/v1/collections", {
      key,
      body: { question: `What is a stack? [tag:${tag}]`, allowedOrigins: [SITE], release: options.release ?? "manual" },
    })
  ).json;
  const db = database(env.DB);
  await bindLtiLink(
    db,
    {
      collectionId: collection.id,
      tenant,
      platformId: platform.id,
      deploymentId: "dep-1",
      contextId: "course-1",
      resourceLinkId: "rl-1",
      lineItemUrl: options.lineItemUrl === undefined ? `${platformUrl(tag)}/lineitems/li-1?type_id=7` : options.lineItemUrl,
      agsScopes: options.scopes === undefined ? ALL_SCOPES : options.scopes,
      membershipsUrl: `${platformUrl(tag)}/memberships`,
    },
    Date.now(),
  );
  for (const [i, q] of options.qualities.entries()) {
    const sent = await request("POST", `/v1/public/collections/${collection.publicToken}/answers`, {
      body: { text: `Answer q=${q}: a stack is last in, first out.` },
      headers: { origin: SITE, "cf-connecting-ip": `198.51.100.${i + 10}` },
    });
    if (sent.status !== 201) throw new Error(`answer: ${sent.status} ${JSON.stringify(sent.json)}`);
  }
  const view = (await request("GET", `/v1/collections/${collection.id}`, { key })).json;
  const answers = view.answers as { id: string; text: string }[];
  for (const [i, a] of answers.entries())
    await bindLtiLearner(
      db,
      { collectionId: collection.id, sub: `learner-${i}`, platformId: platform.id, name: `Learner ${i}`, answerId: a.id },
      Date.now(),
    );
  await request("POST", `/v1/collections/${collection.id}/close`, { key });
  const done = await until("graded", async () => {
    const r = (await request("GET", `/v1/collections/${collection.id}`, { key })).json;
    return r.evaluation?.status === "completed" ? r : null;
  });
  return { tag, key, tenant, platform, collection, evaluation: done.evaluation.id as string, answers };
}

/** The collection's passback view, once no score is queued any more. */
export async function settledScores(key: string, collectionId: string, expected: number) {
  return until(
    "the scores posted or failed",
    async () => {
      const v = (await request("GET", `/v1/collections/${collectionId}/lti-scores`, { key })).json;
      return v.counts.queued === 0 && v.counts.posted + v.counts.failed >= expected ? v : null;
    },
    15_000,
  );
}
