import { IsIn, IsInt, Max, Min } from "class-validator";
import { Optional, SESSION_TREE_LIMITS, type SessionListScope } from "../../core/family/family-api.js";

export class ListParams {
  /** `cwd` (default): journals whose session started in this connection's working directory; `all`: every journal. */
  @Optional()
  @IsIn(["cwd", "all"])
  scope?: SessionListScope;

  @Optional()
  @IsInt()
  @Min(0)
  start?: number;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(SESSION_TREE_LIMITS.maxSessionPageItems)
  limit?: number;
}
