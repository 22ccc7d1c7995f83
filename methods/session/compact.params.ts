import { IsString, MinLength } from "class-validator";
import { MaxBytes, Optional } from "../../core/family/family-api.js";

/** What `session.compact`'s instructions may hold: they go into the summariser's one prompt. */
export const MAX_COMPACT_INSTRUCTIONS_BYTES = 16 * 1024;

export class CompactParams {
  /** Added to the summariser's own instructions (what to keep, what to stress), as pi's custom instructions. */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(MAX_COMPACT_INSTRUCTIONS_BYTES)
  instructions?: string;
}
