import { IsIn } from "class-validator";
import { Optional } from "../../core/kernel/params-decorators.js";
import { THINKING_LEVELS, type ThinkingLevel } from "../../core/wire/session-types.js";

export class SelectThinkingParams {
  @IsIn(THINKING_LEVELS)
  level!: ThinkingLevel;

  @Optional()
  @IsIn(["global", "project"])
  scope?: "global" | "project";
}
