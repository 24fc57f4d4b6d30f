import { z } from "zod";
import { iso } from "./response-parts.ts";

/** A registered LTI 1.3 platform (POST/GET/PATCH /v1/lti/platforms). */
export const ltiPlatform = z.looseObject({
  id: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentIds: z.array(z.string()),
  authLoginUrl: z.string(),
  accessTokenUrl: z.string(),
  jwksUrl: z.string(),
  createdAt: iso,
  updatedAt: iso,
});

export const ltiPlatformList = z.looseObject({ data: z.array(ltiPlatform) });

export const ltiPlatformDeleted = z.looseObject({ id: z.string(), deleted: z.literal(true) });

/** The tool's public keys (GET /lti/jwks): RSA public parameters only, each with its kid. */
export const ltiJwks = z.looseObject({
  keys: z.array(z.looseObject({ kty: z.literal("RSA"), kid: z.string(), n: z.string(), e: z.string(), alg: z.string(), use: z.string() })),
});

export type LtiPlatform = z.output<typeof ltiPlatform>;

export type LtiPlatformList = z.output<typeof ltiPlatformList>;

export type LtiPlatformDeleted = z.output<typeof ltiPlatformDeleted>;

export type LtiJwks = z.output<typeof ltiJwks>;
