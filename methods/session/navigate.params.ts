import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional, SESSION_TREE_LIMITS } from "../../core/family/family-api.js";
import { EntryParams } from "./entry.params.js";

export class NavigateParams extends EntryParams {
  /** A summary of the branch being left, journaled with the move; the model sees it on the new path. */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(SESSION_TREE_LIMITS.maxBranchSummaryBytes)
  summary?: string;
}
