import { IsString, MinLength } from "class-validator";
import { MaxBytes } from "../../core/kernel/params-decorators.js";
import { RPC_LIMITS } from "../../core/wire/limits.js";

export class SelectModelParams {
  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxModelProviderBytes)
  provider!: string;

  @IsString()
  @MinLength(1)
  @MaxBytes(RPC_LIMITS.maxModelIdBytes)
  id!: string;
}
