import { IsString, MinLength } from "class-validator";
import { MaxBytes, RPC_LIMITS } from "../../core/family/family-api.js";

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
