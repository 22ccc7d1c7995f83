import { IsIn, IsString, MinLength } from "class-validator";
import { MaxBytes, Optional, type PermissionDecision } from "../../core/family/family-api.js";

export const PERMISSION_DECISIONS: readonly PermissionDecision[] = ["allow_once", "allow_always", "deny"];

export class ResolvePermissionParams {
  @IsString()
  @MinLength(1)
  @MaxBytes(128)
  requestId!: string;

  @IsIn(PERMISSION_DECISIONS)
  decision!: PermissionDecision;

  /** With `deny`: what the model reads in the tool's error result. */
  @Optional()
  @IsString()
  @MaxBytes(8192)
  message?: string;
}
