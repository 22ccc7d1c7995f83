import type { MethodFamily } from "../../core/family/family-api.js";
import { AwaitIdleMethod } from "./await-idle.method.js";
import { GetContextMethod } from "./get-context.method.js";
import { GetMessagesMethod } from "./get-messages.method.js";
import { GetOutcomesMethod } from "./get-outcomes.method.js";
import { GetStateMethod } from "./get-state.method.js";
import { GetUsageMethod } from "./get-usage.method.js";
import { InterruptMethod } from "./interrupt.method.js";
import { PromptMethod } from "./prompt.method.js";
import { SetBudgetMethod } from "./set-budget.method.js";

/** `session.*`: reaches the AgentSession only through the SESSION port. */
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
  },
} satisfies MethodFamily;
