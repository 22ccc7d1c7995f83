import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional } from "../../core/kernel/params-decorators.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";

export class AwaitIdleParams {
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCompletionIdBytes)
  completionId?: string;
}
