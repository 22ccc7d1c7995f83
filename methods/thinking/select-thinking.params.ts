import { IsIn } from "class-validator";
import { Optional, THINKING_LEVELS, type ThinkingLevel } from "../../core/family/family-api.js";

export class SelectThinkingParams {
  @IsIn(THINKING_LEVELS)
  level!: ThinkingLevel;

  @Optional()
  @IsIn(["global", "project"])
  scope?: "global" | "project";
}
