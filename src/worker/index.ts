import { createApp } from "../api/app";

export { Collection } from "../../durable-objects/collection";
export { RateLimiter } from "../../durable-objects/rate-limiter";
export { JudgeGate } from "../../durable-objects/judge-gate";
export { Tournament } from "../../durable-objects/tournament";
export { WebhookDelivery } from "../../durable-objects/webhook-delivery";

export default createApp();
