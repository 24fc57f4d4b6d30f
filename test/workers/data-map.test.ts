import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { newKey, uniqueTag } from "./helpers";
import { seedCanary, seedLtiLearner } from "./canary-seed";
import { mappedPlaces, placesHolding } from "./data-scan";

describe("the data map (docs/security.md)", () => {
  it("lists every place a canary answer, name, grade and feedback is found, in D1 and in every object", async () => {
    // admin: the LTI learner's seed registers a platform
    const key = await newKey(uniqueTag("map-tenant"), ["read", "write", "admin"]);
    const canary = `cnry${crypto.randomUUID().slice(0, 8)}`;
    await seedCanary(key, canary);
    await seedLtiLearner(key, canary);

    const found = await placesHolding(canary);
    const mapped = mappedPlaces(inject("docs"));
    expect(found.filter((place) => !mapped.has(place))).toEqual([]);
    // the scan itself reads what it should: the canary is where the answers, names and replies are
    for (const place of [
      "d1 answers.text",
      "d1 answers.examinee",
      "d1 matches.calls",
      "d1 teacher_grades.note",
      "d1 feedback_edits.text",
      "d1 collection_answers.name",
      "d1 lti_learners.sub",
      "d1 lti_learners.name",
      "d1 lti_sessions.sub",
      "do Tournament answer.text",
      "do Tournament answer.examinee",
      "do WebhookDelivery message.body",
    ])
      expect(found).toContain(place);
  });
});
