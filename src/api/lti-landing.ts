import type { Context } from "hono";
import { type CollectionSettings, collectionById, findCollection } from "../db/collections";
import { database } from "../db/database";
import type { LtiPlatformRow } from "../db/lti";
import { insertSession, learnerOf, learnerSubmission, linkByResource, linkOf, noteLearner, recordLaunch } from "../db/lti-links";
import { courseState } from "../evaluations/lti-course-state";
import { receiptOf } from "../evaluations/receipt-view";
import { instructorPage, learnerPage } from "../lti/course-pages";
import { deepLinkingSettingsOf } from "../lti/deep-linking";
import { type Launch, launchOf } from "../lti/launch";
import { launchedPage, ltiPagePolicy } from "../lti/pages";
import { questionFormPage } from "../lti/question-form";
import { linkedCollectionOf, linkRefusal, servicesOf } from "../lti/resource-link";
import { hashToken } from "../platform/tokens";
import { describe } from "./collections";
import type { App } from "./context";
import { mintInstructorKey } from "./lti-instructor-key";
import { isRefusal, pageHeaders, randomToken, refused } from "./lti-response";
import { selfOrigin } from "./public-origin";

/** How long a deep linking form may stay open, and a learner's page may still send an answer. */
export const DEEP_LINKING_SESSION_MS = 60 * 60_000;
export const LEARNER_SESSION_MS = 2 * 60 * 60_000;

/**
 * Where a verified launch lands. A deep linking request (an instructor's) gets the question form; a
 * resource link naming a collection this platform placed gets the learner's or the instructor's page;
 * a link naming none, the page saying who launched (there is nothing to open through it).
 */
export async function landing(c: Context<App>, platform: LtiPlatformRow, claims: Record<string, unknown>): Promise<Response> {
  const launch = launchOf(claims);
  if (launch.messageType === "LtiDeepLinkingRequest") return deepLinkingForm(c, platform, launch, claims);
  const db = database(c.env.DB);
  const resourceLinkId = launch.resourceLink?.id as string;
  const named = linkedCollectionOf(claims);
  const link = named !== null ? await linkOf(db, named) : await linkByResource(db, platform.id, resourceLinkId);
  if (named === null && link === null) return new Response(launchedPage(launch), { status: 200, headers: pageHeaders() });
  const wrong = linkRefusal(link, { platformId: platform.id, resourceLinkId });
  // the same words for another platform's collection and one that does not exist: a launch learns nothing of others
  if (wrong || !link) return refused(c, { code: wrong ?? "unknown-activity" });
  const collection = await findCollection(db, platform.tenant, link.collectionId);
  if (!collection) return refused(c, { code: "unknown-activity" });
  await recordLaunch(db, link.collectionId, resourceLinkId, servicesOf(claims), Date.now());
  if (launch.role === "learner") return learnerLanding(c, platform, launch, collection.id);
  if (launch.role === "instructor") return instructorLanding(c, platform, launch, collection.id);
  return new Response(launchedPage(launch), { status: 200, headers: pageHeaders() });
}

async function deepLinkingForm(c: Context<App>, platform: LtiPlatformRow, launch: Launch, claims: Record<string, unknown>) {
  if (launch.role !== "instructor") return refused(c, { code: "not-for-role", detail: "Only an instructor adds a question to a course." });
  const settings = deepLinkingSettingsOf(claims);
  if (isRefusal(settings)) return refused(c, settings);
  const token = randomToken();
  const now = Date.now();
  await insertSession(
    database(c.env.DB),
    {
      tokenHash: await hashToken(token),
      kind: "deep-linking",
      tenant: platform.tenant,
      platformId: platform.id,
      deploymentId: launch.deploymentId,
      collectionId: null,
      sub: launch.sub,
      name: null,
      contextId: launch.context?.id ?? null,
      contextTitle: launch.context?.title ?? null,
      returnUrl: settings.returnUrl,
      data: settings.data,
      expiresAt: now + DEEP_LINKING_SESSION_MS,
    },
    now,
  );
  const html = questionFormPage({
    session: token,
    action: `${selfOrigin(c)}/lti/deep-link`,
    values: {},
    errors: [],
    course: launch.context?.title ?? null,
  });
  return new Response(html, { status: 200, headers: pageHeaders(ltiPagePolicy("'self'")) });
}

/** The learner's page: a session for their answer form, and their receipt once they answered. */
async function learnerLanding(c: Context<App>, platform: LtiPlatformRow, launch: Launch, collectionId: string) {
  const db = database(c.env.DB);
  const now = Date.now();
  await noteLearner(db, { collectionId, sub: launch.sub, platformId: platform.id, name: launch.name }, now);
  const token = randomToken();
  await insertSession(
    db,
    {
      tokenHash: await hashToken(token),
      kind: "learner",
      tenant: platform.tenant,
      platformId: platform.id,
      deploymentId: launch.deploymentId,
      collectionId,
      sub: launch.sub,
      name: launch.name,
      contextId: launch.context?.id ?? null,
      contextTitle: launch.context?.title ?? null,
      returnUrl: null,
      data: null,
      expiresAt: now + LEARNER_SESSION_MS,
    },
    now,
  );
  return learnerResponse(c, { collectionId, sub: launch.sub, who: launch.name, session: token, notice: null, receiptUrl: null }, 200);
}

/** The learner's page as it stands: their answer's receipt (if they gave one) and the form while open. */
export async function learnerResponse(
  c: Context<App>,
  a: { collectionId: string; sub: string; who: string | null; session: string; notice: string | null; receiptUrl: string | null },
  status: 200 | 201 | 400 | 409,
): Promise<Response> {
  const db = database(c.env.DB);
  const collection = await collectionById(db, a.collectionId);
  // erased while the page was open: its session outlived it
  if (!collection) return refused(c, { code: "unknown-activity" });
  const learner = await learnerOf(db, a.collectionId, a.sub);
  const submission = learner?.answerId ? await learnerSubmission(db, a.collectionId, learner.answerId) : null;
  const html = learnerPage({
    question: (collection.settings as CollectionSettings).question,
    open: collection.status === "open",
    receipt: submission ? await receiptOf(c.env, submission) : null,
    session: a.session,
    action: `${selfOrigin(c)}/lti/answer`,
    who: a.who,
    notice: a.notice,
    receiptUrl: a.receiptUrl,
  });
  return new Response(html, { status, headers: pageHeaders(ltiPagePolicy("'self'")) });
}

/**
 * The instructor's page, with a key limited to this collection (and the evaluation grading it) for the
 * collection and review pages, which open in a new window: the tenant's key is never in the browser.
 */
async function instructorLanding(c: Context<App>, platform: LtiPlatformRow, launch: Launch, collectionId: string) {
  const db = database(c.env.DB);
  const row = (await findCollection(db, platform.tenant, collectionId))!;
  const origin = selfOrigin(c);
  const view = await describe(origin, row, c.env);
  const [minted, course] = await Promise.all([
    mintInstructorKey(c.env, { tenant: platform.tenant, collectionId, platformId: platform.id }),
    courseState(c.env, collectionId),
  ]);
  const fragment = `#key=${encodeURIComponent(minted.key)}`;
  const html = instructorPage({
    question: view.question,
    status: view.status,
    answers: view.answers,
    maxScore: view.maxScore,
    collectionUrl: `${origin}/collections?id=${encodeURIComponent(collectionId)}${fragment}`,
    reviewUrl: view.evaluation?.status === "completed" ? `${origin}/review?id=${encodeURIComponent(view.evaluation.id)}${fragment}` : null,
    expiresAt: new Date(minted.expiresAt).toISOString(),
    who: launch.name,
    course,
  });
  return new Response(html, { status: 200, headers: pageHeaders() });
}
