import { SESSION_TREE_LIMITS } from "../../core/family/family-api.js";
import { pagedParams } from "./paged.params.js";

/** `session.get_tree`: `start` ≥ 0, `limit` 1..maxTreePageItems. */
export class TreePageParams extends pagedParams(SESSION_TREE_LIMITS.maxTreePageItems) {}
