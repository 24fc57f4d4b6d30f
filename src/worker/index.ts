import { createApp } from "../api/app";
import { runRetention } from "../evaluations/retention";
import { metered } from "../platform/meter";

export { Collection } from "../../durable-objects/collection";
export { RateLimiter } from "../../durable-objects/rate-limiter";
export { JudgeGate } from "../../durable-objects/judge-gate";
export { LtiScores } from "../../durable-objects/lti-scores";
export { Tournament } from "../../durable-objects/tournament";
export { WebhookDelivery } from "../../durable-objects/webhook-delivery";

const app = createApp();

export default {
  // the bindings as they are, unless the bench meters them (METER_USAGE, src/platform/meter.ts)
  fetch: (request, env, ctx) => app.fetch(request, metered(env), ctx),
  /**
   * The hourly Cron Trigger (wrangler.toml `[triggers]`): the retention run, at the trigger's own
   * scheduled time, so what it erases is what was due when it was meant to run.
   */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      runRetention(env, controller.scheduledTime).then(({ erased, failed }) =>
        console.log(`retention run: ${erased.length} erased, ${failed.length} left for the next run`),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
