import { RPC_LIMITS } from "../../core/family/family-api.js";
import { pagedParams } from "./paged.params.js";

/** `session.get_outcomes`: `start` ≥ 0, `limit` 1..maxOutcomePageItems. */
export class OutcomePageParams extends pagedParams(RPC_LIMITS.maxOutcomePageItems) {}
