import { IsString, MinLength } from "class-validator";
import { MaxBytes } from "../../core/family/family-api.js";

export class RemoveMcpParams {
  @IsString()
  @MinLength(1)
  @MaxBytes(64)
  name!: string;
}
