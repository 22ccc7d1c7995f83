import { IsInt, Max, Min } from "class-validator";
import { Optional, RPC_LIMITS } from "../../core/family/family-api.js";

/** Shared by `session.get_messages` and `session.get_outcomes`: both page limits are 100. */
export class PageParams {
  @Optional()
  @IsInt()
  @Min(0)
  start?: number;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(RPC_LIMITS.maxMessagePageItems)
  limit?: number;
}
