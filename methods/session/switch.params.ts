import { IsString, MinLength } from "class-validator";
import { DescribedRule, MaxBytes, Optional, SESSION_TREE_LIMITS } from "../../core/family/family-api.js";

/** Not both `path` and `id` (neither is answered by the method: operation_failed). */
const NotWithId = () =>
  DescribedRule({
    name: "pathNotWithId",
    objectSchema: { if: { required: ["id"] }, then: { properties: { path: { not: {} } } } },
    validate: (_value, object) => (object as SwitchParams).id === undefined,
    message: () => "give path or id, not both",
  });

export class SwitchParams {
  /** A journal file (as `session.list` gives it, or any Zi journal). */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(SESSION_TREE_LIMITS.maxPathBytes)
  @NotWithId()
  path?: string;

  /** A session id from `session.list`. */
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxBytes(SESSION_TREE_LIMITS.maxEntryIdBytes * 2)
  id?: string;
}
