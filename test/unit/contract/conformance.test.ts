import { test } from "vitest";
import type * as wire from "../../../src/contract";
import type { JudgesView } from "../../../src/gate/judges-view";
import type { LiveMatch, LiveView } from "../../../src/live/view";
import type { Problem } from "../../../src/platform/problems";

// The service builds these views with its own types; the contract says what a client receives. A view
// that gains, loses or retypes a field without the contract fails `npm run typecheck` here (the
// assertions are types: at run time there is nothing to check). Problem is the contract's own type.
/** Compiles only when a `Sent` is a `Promised`: plain assignability, as a client's code would meet it. */
type Conforms<Sent extends Promised, Promised> = [Sent, Promised];

test("what the service sends is what the contract promises", () => {
  const checked: [
    Conforms<LiveView, wire.LiveView>,
    Conforms<LiveMatch, wire.LiveMatch>,
    Conforms<JudgesView, wire.JudgesView>,
    Conforms<Problem, wire.Problem>,
  ][] = [];
  void checked;
});
