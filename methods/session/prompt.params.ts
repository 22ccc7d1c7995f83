import { IsIn, IsString, MinLength, ValidateBy } from "class-validator";
import { MaxBytes, Optional } from "../../core/kernel/params-decorators.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";
import type { Delivery } from "../../core/wire/session-types.js";

/** Only `continue` may carry no text: it resumes from the current context. */
const NonEmptyUnlessContinue = () =>
  ValidateBy({
    name: "nonEmptyUnlessContinue",
    validator: {
      validate: (text, args) => (args?.object as PromptParams).delivery === "continue" || text !== "",
      defaultMessage: () => "text must not be empty unless delivery is continue",
    },
  });

export class PromptParams {
  @IsIn(["direct", "steer", "follow_up", "continue"])
  delivery!: Delivery;

  @IsString()
  @MaxBytes(RPC_LIMITS.maxPromptTextBytes)
  @NonEmptyUnlessContinue()
  text!: string;

  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCompletionIdBytes)
  completionId?: string;
}
