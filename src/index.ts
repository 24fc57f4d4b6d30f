import { createApp } from "./api/app";

export { Tournament } from "../durable-objects/tournament";

export default createApp();
