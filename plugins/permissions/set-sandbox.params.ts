import { IsArray, IsBoolean, IsIn, IsString, Matches } from "class-validator";
import { Optional, SANDBOX_MODES, type SandboxMode } from "../../core/family/family-api.js";

export class SetSandboxParams {
  @IsIn(SANDBOX_MODES)
  mode!: SandboxMode;

  @Optional()
  @IsBoolean()
  network?: boolean;

  @Optional()
  @IsArray()
  @IsString({ each: true })
  @Matches(/^\//, { each: true, message: "writableRoots must be absolute paths" })
  writableRoots?: string[];
}
