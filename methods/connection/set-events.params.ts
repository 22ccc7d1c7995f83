import { IsIn } from "class-validator";
import { Optional, type EventModeName } from "../../core/family/family-api.js";

export class SetEventsParams {
  @Optional()
  @IsIn(["all", "none"])
  mode?: EventModeName;
}
