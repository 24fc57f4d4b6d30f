import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { collectionBody, collectionLimits, submissionBody } from "../contract";
import { database } from "../db/database";
import { platformById } from "../db/lti";
import { consumeSession, insertLink, liveSession, type LtiSessionRow } from "../db/lti-links";
import { openCollection } from "../evaluations/open-collection";
import { deepLinkingResponseClaims, resourceLinkItem, titleOf } from "../lti/deep-linking";
import { ltiPagePolicy } from "../lti/pages";
import { questionFormPage, questionRequestOf, returnPage } from "../lti/question-form";
import { parseToolKeys, signAsTool, signingKey } from "../lti/tool-keys";
import { fieldErrors, problemResponse } from "../platform/problems";
import { collectionStub } from "../platform/stubs";
import { hashToken } from "../platform/tokens";
import type { App } from "./context";
import { learnerResponse } from "./lti-landing";
import { pageHeaders, randomToken, refused } from "./lti-response";
import { selfOrigin } from "./public-origin";
import { route } from "./route";

/**
 * The forms of the pages a launch lands on, posted back from the LMS's frame with the page's session
 * token (no key, no cookie): the deep linking form, which makes the collection and returns it to the
 * platform, and a learner's answer. Thin: the rules are src/lti's and the Collection object's.
 */
export const ltiCourse = new Hono<App>();

/** The longest question and reference, percent-encoded (9 bytes a character at worst), and room for the rest. */
const MAX_FORM_BYTES = 2 * 20_000 * 9 + 16 * 1024;
ltiCourse.use(
  "*",
  bodyLimit({ maxSize: MAX_FORM_BYTES, onError: () => problemResponse(413, `an LTI form is at most ${MAX_FORM_BYTES} bytes`) }),
);

async function formOf(c: Context<App>): Promise<Record<string, string>> {
  const form = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

/** The live session a form carries, of the kind it must be, or null. */
async function sessionOf(c: Context<App>, token: string | undefined, kind: LtiSessionRow["kind"]): Promise<LtiSessionRow | null> {
  if (!token) return null;
  const session = await liveSession(database(c.env.DB), await hashToken(token), Date.now());
  return session?.kind === kind ? session : null;
}

route(
  ltiCourse,
  {
    method: "post",
    path: "/deep-link",
    summary: "LTI Deep Linking: the question form's post (makes the collection, returns it to the LMS)",
    tag: "lti",
    auth: "none",
    ok: { 200: { description: "a page that posts the signed LtiDeepLinkingResponse to the LMS", mediaType: "text/html" } },
    refusals: [400, 403, 413, 503],
  },
  async (c) => {
    const fields = await formOf(c);
    const session = await sessionOf(c, fields.session, "deep-linking");
    if (!session) return refused(c, { code: "no-session" });
    const db = database(c.env.DB);
    const platform = await platformById(db, session.platformId);
    if (!platform || platform.tenant !== session.tenant) return refused(c, { code: "unknown-platform" });
    const keys = parseToolKeys(c.env.LTI_PRIVATE_KEYS);
    const key = "error" in keys ? null : signingKey(keys.keys, Date.now());
    if (!key) {
      if ("error" in keys) console.error(`LTI keys: ${keys.error}`);
      return refused(c, { code: "not-configured" });
    }
    const origin = selfOrigin(c);
    const parsed = collectionBody.safeParse(questionRequestOf(fields, origin));
    if (!parsed.success) {
      // shown again with what was typed; the session stays, nothing was made
      const html = questionFormPage({
        session: fields.session,
        action: `${origin}/lti/deep-link`,
        values: fields,
        errors: fieldErrors(parsed.error),
        course: session.contextTitle,
      });
      return new Response(html, { status: 400, headers: pageHeaders(ltiPagePolicy("'self'")) });
    }
    // one collection per form: a second post of it (a double click, a replay) finds no session
    if (!(await consumeSession(db, session.tokenHash))) return refused(c, { code: "no-session" });
    const collection = await openCollection(c.env, session.tenant, parsed.data);
    const now = Date.now();
    await insertLink(db, {
      collectionId: collection.id,
      tenant: session.tenant,
      platformId: platform.id,
      deploymentId: session.deploymentId,
      contextId: session.contextId,
      contextTitle: session.contextTitle,
      createdAt: now,
      updatedAt: now,
    });
    const title = titleOf(parsed.data.question);
    const claims = deepLinkingResponseClaims({
      clientId: platform.clientId,
      platformIssuer: platform.issuer,
      deploymentId: session.deploymentId,
      nonce: randomToken(),
      data: session.data,
      items: [resourceLinkItem({ collectionId: collection.id, title, maxScore: parsed.data.maxScore, launchUrl: `${origin}/lti/launch` })],
    });
    const iat = Math.floor(now / 1000);
    const jwt = await signAsTool({ ...claims, iat, exp: iat + 5 * 60 }, key);
    const returnUrl = session.returnUrl as string;
    const scriptNonce = randomToken();
    const html = returnPage({ returnUrl, jwt, scriptNonce, title });
    return new Response(html, { status: 200, headers: pageHeaders(ltiPagePolicy(new URL(returnUrl).origin, scriptNonce)) });
  },
);

route(
  ltiCourse,
  {
    method: "post",
    path: "/answer",
    summary: "LTI: a learner's answer (their first, or a change until the question closes)",
    tag: "lti",
    auth: "none",
    ok: {
      200: { description: "the learner's page, their changed answer on it", mediaType: "text/html" },
      201: { description: "the learner's page, their first answer and its receipt on it", mediaType: "text/html" },
    },
    refusals: [400, 403, 409, 413],
  },
  async (c) => {
    const fields = await formOf(c);
    // the session alone says who answers and where: any other field (a sub, a collection) is not read
    const session = await sessionOf(c, fields.session, "learner");
    if (!session?.collectionId) return refused(c, { code: "no-session" });
    const page = { collectionId: session.collectionId, sub: session.sub, who: session.name, session: fields.session };
    const text = submissionBody.shape.text.safeParse(fields.text ?? "");
    if (!text.success)
      return learnerResponse(
        c,
        {
          ...page,
          notice: `Your answer ${text.error.issues[0]?.message ?? "is not valid"} (at most ${collectionLimits.maxSubmissionChars} characters).`,
          receiptUrl: null,
        },
        400,
      );
    const answered = await collectionStub(c.env, session.collectionId).answerAs({
      sub: session.sub,
      platformId: session.platformId,
      name: session.name,
      text: text.data,
    });
    if (!answered.ok)
      return learnerResponse(c, { ...page, notice: "This question is closed: it no longer takes answers.", receiptUrl: null }, 409);
    const receiptUrl = answered.receiptToken ? new URL(`/receipt/${answered.receiptToken}`, selfOrigin(c)).href : null;
    const notice = answered.replaced ? "Your answer was changed." : "Your answer was sent.";
    return learnerResponse(c, { ...page, notice, receiptUrl }, answered.replaced ? 200 : 201);
  },
);
