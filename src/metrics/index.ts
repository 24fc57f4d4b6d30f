// The metrics core: pure functions from graded answers to agreement with human experts.
export * from "./bootstrap";
export * from "./by-round";
export * from "./correlation";
export * from "./items";
export * from "./levels";
export * from "./ranking-accuracy";
export * from "./ranks";
export * from "./report";
export * from "./wilson";
