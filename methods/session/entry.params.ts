import { IsString, MinLength } from "class-validator";
import { MaxBytes, SESSION_TREE_LIMITS } from "../../core/family/family-api.js";

/** A journal entry named by its id (`session.get_tree` lists them): fork, navigate and rewind take one. */
export class EntryParams {
  @IsString()
  @MinLength(1)
  @MaxBytes(SESSION_TREE_LIMITS.maxEntryIdBytes)
  entryId!: string;
}
