import { z } from "zod";

/**
 * An LTI 1.3 platform (an LMS: Moodle, Canvas, ...) a tenant registers, with the values its admin
 * reads off the LMS's tool registration page. The URLs' host rules (https, a public host) depend on the
 * deployment's ALLOW_INSECURE_WEBHOOKS, so the route checks them after this schema.
 */
const url = z.string().min(1, "must not be empty").max(2000);
const deploymentIds = z
  .array(z.string().min(1, "must not be empty").max(255))
  .min(1, "must name at least one deployment id")
  .max(100)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat a deployment id");

export const ltiPlatformBody = z.strictObject({
  /** The platform's issuer (`iss` of its id_tokens), e.g. https://canvas.instructure.com. */
  issuer: z.string().min(1, "must not be empty").max(500),
  /** The client id the platform gave this tool (`aud` of its id_tokens). */
  clientId: z.string().min(1, "must not be empty").max(255),
  /** The deployment ids launches may come from (`deployment_id` claim). */
  deploymentIds,
  /** The platform's OIDC authorization endpoint, where the login redirects the browser. */
  authLoginUrl: url,
  /** The platform's OAuth 2 token endpoint (grade passback, later). */
  accessTokenUrl: url,
  /** The platform's public keys (JWKS), which its id_tokens are checked against. */
  jwksUrl: url,
});
export type LtiPlatformRequest = z.input<typeof ltiPlatformBody>;

/** A change to a registered platform: any of its fields; the issuer and client id included. */
export const ltiPlatformPatch = ltiPlatformBody.partial().refine((b) => Object.keys(b).length > 0, "must change at least one field");
export type LtiPlatformPatchRequest = z.input<typeof ltiPlatformPatch>;
