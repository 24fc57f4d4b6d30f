// The wire contract of knockout-judge: every request and response as a zod schema with its type, the
// problem+json shape, the event-stream events and the webhook payloads. It imports only zod and its own
// files (test/unit/contract/imports.test.ts holds that), so the service, the typed client, the CLI and
// the web front can all import it: `knockout-judge/contract` once installed.
export * from "./batch-request.ts";
export * from "./collection-request.ts";
export * from "./erasure.ts";
export * from "./evaluation-request.ts";
export * from "./grade-step.ts";
export * from "./events.ts";
export * from "./grade-request.ts";
export * from "./identifier.ts";
export * from "./key-request.ts";
export * from "./lti-passback.ts";
export * from "./lti-request.ts";
export * from "./limits.ts";
export * from "./names.ts";
export * from "./problem.ts";
export * from "./ratings-request.ts";
export * from "./release-request.ts";
export * from "./responses.ts";
export * from "./review-rule.ts";
export * from "./share-request.ts";
export * from "./tenant-settings-request.ts";
