import { IsIn, IsString, MinLength } from "class-validator";
import { MaxBytes, Optional, SESSION_TREE_LIMITS, type ExportFormat } from "../../core/family/family-api.js";

export class ExportParams {
  @IsIn(["html", "jsonl"])
  format!: ExportFormat;

  /** Where to write it (relative to the working directory); default `$ZI_HOME/exports/<sessionId>.<format>`. */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(SESSION_TREE_LIMITS.maxPathBytes)
  path?: string;
}
