import { createApp } from "./api/app";

export { JudgeGate } from "../durable-objects/judge-gate";
export { Tournament } from "../durable-objects/tournament";

export default createApp();
