import { createApp } from "./api/app";

export { Collection } from "../durable-objects/collection";
export { Tournament } from "../durable-objects/tournament";

export default createApp();
