import { describe, expect, it } from "@jest/globals";
import type { ParamsOf, ResultOf, ZiMethodName } from "../../client/protocol-types.js";
import type { PageParams } from "../../methods/session/page.params.js";
import type { PromptParams } from "../../methods/session/prompt.params.js";
import type { ReplacePlanParams } from "../../plugins/work-plan/replace-plan.params.js";
import type { MessagePage, PromptResult, SessionState, WorkPlan } from "../../core/wire/session-types.js";
import type { RewindResult, SessionListPage, SessionSwitch, TreePage } from "../../core/wire/session-tree-types.js";
import type { ListParams } from "../../methods/session/list.params.js";
import type { RewindParams } from "../../methods/session/rewind.params.js";

// Exact type equality: fails to compile (npm run typecheck) when the derived map drifts.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const derived: [
  Equal<ParamsOf<"session.get_state">, undefined>,
  Equal<ResultOf<"session.get_state">, SessionState>,
  Equal<ParamsOf<"session.get_messages">, PageParams | undefined>,
  Equal<ResultOf<"session.get_messages">, MessagePage>,
  Equal<ParamsOf<"session.prompt">, PromptParams>,
  Equal<ResultOf<"session.prompt">, PromptResult>,
  // Plugin families are in the map too: it is derived from plugins/builtin-plugin-families.ts (checked against builtin-plugins.ts).
  Equal<ParamsOf<"plan.replace">, ReplacePlanParams>,
  Equal<ResultOf<"plan.get">, { workPlan: WorkPlan }>,
  Equal<"nope.not_a_method" extends ZiMethodName ? true : false, false>,
  // The session tree (docs/sessions.md): the result schemas type exactly the port's shapes.
  Equal<ParamsOf<"session.list">, ListParams | undefined>,
  Equal<ResultOf<"session.list">, SessionListPage>,
  Equal<ResultOf<"session.get_tree">, TreePage>,
  Equal<ResultOf<"session.fork">, SessionSwitch>,
  Equal<ParamsOf<"session.rewind">, RewindParams>,
  Equal<ResultOf<"session.rewind">, RewindResult>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];

describe("the typed client's method map", () => {
  it("is derived from the method families (checked by the compiler)", () => {
    expect(derived.every(Boolean)).toBe(true);
  });
});
