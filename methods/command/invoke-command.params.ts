import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional, RPC_LIMITS } from "../../core/family/family-api.js";

export class InvokeCommandParams {
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxCommandNameBytes)
  name!: string;

  /** The raw argument string handed to the handler unparsed; omitted means "". */
  @Optional()
  @IsString()
  @MaxBytes(RPC_LIMITS.maxCommandArgumentsBytes)
  arguments?: string;
}
