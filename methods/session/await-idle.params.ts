import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional } from "../../core/kernel/params-decorators.js";
import { RPC_LIMITS } from "../../core/kernel/rpc-limits.js";

export class AwaitIdleParams {
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCompletionIdBytes)
  completionId?: string;
}
