// What the routes answer: the API's description and the client's types, one file per resource. Objects
// are open (more fields may come), and each lists what a client can rely on; the request schemas are in
// the *-request files.
export * from "./account-response.ts";
export * from "./answer-response.ts";
export * from "./batch-response.ts";
export * from "./collection-response.ts";
export * from "./evaluation-response.ts";
export * from "./judge-figures.ts";
export * from "./lti-response.ts";
export { type Page, page } from "./response-parts.ts";
export * from "./share-response.ts";
export * from "./webhook-events.ts";
