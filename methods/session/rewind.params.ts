import { IsBoolean, IsIn } from "class-validator";
import { Optional, type RewindRestore } from "../../core/family/family-api.js";
import { EntryParams } from "./entry.params.js";

export class RewindParams extends EntryParams {
  @IsIn(["conversation", "files", "both"])
  restore!: RewindRestore;

  /** Restore files even where someone else changed them since Zi's tools did (default false). */
  @Optional()
  @IsBoolean()
  force?: boolean;
}
