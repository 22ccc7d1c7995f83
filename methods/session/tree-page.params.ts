import { IsInt, Max, Min } from "class-validator";
import { Optional, SESSION_TREE_LIMITS } from "../../core/family/family-api.js";

export class TreePageParams {
  @Optional()
  @IsInt()
  @Min(0)
  start?: number;

  @Optional()
  @IsInt()
  @Min(1)
  @Max(SESSION_TREE_LIMITS.maxTreePageItems)
  limit?: number;
}
