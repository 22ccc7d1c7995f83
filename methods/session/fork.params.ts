import { IsBoolean } from "class-validator";
import { Optional } from "../../core/family/family-api.js";
import { EntryParams } from "./entry.params.js";

export class ForkParams extends EntryParams {
  /**
   * `false`: only write the new journal and answer its path; the connection stays in its session (no
   * `session_switched`). A front end holding several sessions (ACP's `session/fork`) opens it itself.
   * Default true: the connection continues in the fork.
   */
  @Optional()
  @IsBoolean()
  switch?: boolean;
}
