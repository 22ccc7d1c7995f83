import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional } from "../../core/kernel/params-decorators.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";

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
