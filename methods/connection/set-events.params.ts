import { IsIn } from "class-validator";
import { Optional } from "../../core/kernel/params-decorators.js";
import type { EventModeName } from "../../core/kernel/event-mode.js";

export class SetEventsParams {
  @Optional()
  @IsIn(["all", "none"])
  mode?: EventModeName;
}
