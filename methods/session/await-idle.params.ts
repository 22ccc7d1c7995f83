import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional, RPC_LIMITS } from "../../core/family/family-api.js";

export class AwaitIdleParams {
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCompletionIdBytes)
  completionId?: string;
}
