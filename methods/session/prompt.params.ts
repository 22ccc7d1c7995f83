import { IsIn, IsString, MinLength } from "class-validator";
import { DescribedRule, MaxBytes, Optional, RPC_LIMITS, type Delivery } from "../../core/family/family-api.js";

/** Only `continue` may carry no text: it resumes from the current context. */
const NonEmptyUnlessContinue = () =>
  DescribedRule({
    name: "nonEmptyUnlessContinue",
    // How `zi schema` describes the rule: it relates two fields, so it is a member of the object's allOf.
    objectSchema: {
      if: { properties: { delivery: { not: { const: "continue" } } } },
      then: { properties: { text: { not: { const: "" } } } },
    },
    validate: (text, object) => (object as PromptParams).delivery === "continue" || text !== "",
    message: () => "text must not be empty unless delivery is continue",
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
