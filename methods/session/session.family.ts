import type { MethodFamily } from "../../core/family/family-api.js";
import { AwaitIdleMethod } from "./await-idle.method.js";
import { CompactMethod } from "./compact.method.js";
import { GetContextMethod } from "./get-context.method.js";
import { GetMessagesMethod } from "./get-messages.method.js";
import { GetOutcomesMethod } from "./get-outcomes.method.js";
import { GetStateMethod } from "./get-state.method.js";
import { GetUsageMethod } from "./get-usage.method.js";
import { InterruptMethod } from "./interrupt.method.js";
import { PromptMethod } from "./prompt.method.js";
import { SetBudgetMethod } from "./set-budget.method.js";
import { ExportMethod } from "./export.method.js";
import { ForkMethod } from "./fork.method.js";
import { GetTreeMethod } from "./get-tree.method.js";
import { ListMethod } from "./list.method.js";
import { NavigateMethod } from "./navigate.method.js";
import { NewMethod } from "./new.method.js";
import { RewindMethod } from "./rewind.method.js";
import { SwitchMethod } from "./switch.method.js";

/** `session.*`: reaches the AgentSession through the SESSION port, its journals and the tree through SESSIONS. */
export const sessionFamily = {
  family: "session",
  methods: {
    "session.get_state": GetStateMethod,
    "session.get_messages": GetMessagesMethod,
    "session.get_outcomes": GetOutcomesMethod,
    "session.get_usage": GetUsageMethod,
    "session.get_context": GetContextMethod,
    "session.prompt": PromptMethod,
    "session.interrupt": InterruptMethod,
    "session.await_idle": AwaitIdleMethod,
    "session.set_budget": SetBudgetMethod,
    "session.compact": CompactMethod,
    "session.list": ListMethod,
    "session.get_tree": GetTreeMethod,
    "session.navigate": NavigateMethod,
    "session.fork": ForkMethod,
    "session.new": NewMethod,
    "session.switch": SwitchMethod,
    "session.rewind": RewindMethod,
    "session.export": ExportMethod,
  },
} satisfies MethodFamily;
