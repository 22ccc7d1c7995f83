import { RPC_LIMITS } from "../../core/family/family-api.js";
import { pagedParams } from "./paged.params.js";

/** `session.get_messages`: `start` ≥ 0, `limit` 1..maxMessagePageItems. */
export class PageParams extends pagedParams(RPC_LIMITS.maxMessagePageItems) {}
