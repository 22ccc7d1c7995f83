import { IsIn } from "class-validator";
import { Optional, SESSION_TREE_LIMITS, type SessionListScope } from "../../core/family/family-api.js";
import { pagedParams } from "./paged.params.js";

/** `session.list`: a scope, `start` ≥ 0, `limit` 1..maxSessionPageItems. */
export class ListParams extends pagedParams(SESSION_TREE_LIMITS.maxSessionPageItems) {
  /** `cwd` (default): journals whose session started in this connection's working directory; `all`: every journal. */
  @Optional()
  @IsIn(["cwd", "all"])
  scope?: SessionListScope;
}
