import { lazy, type MethodFamily } from "../../core/family/family-api.js";

/** `session.*`: reaches the AgentSession through the SESSION port, its journals and the tree through SESSIONS. */
export const sessionFamily = {
  family: "session",
  methods: {
    "session.get_state": lazy(() => import("./get-state.method.js"), "GetStateMethod"),
    "session.get_messages": lazy(() => import("./get-messages.method.js"), "GetMessagesMethod"),
    "session.get_outcomes": lazy(() => import("./get-outcomes.method.js"), "GetOutcomesMethod"),
    "session.get_usage": lazy(() => import("./get-usage.method.js"), "GetUsageMethod"),
    // The files are read in the deferred startup, with the extensions.
    "session.get_context": lazy(() => import("./get-context.method.js"), "GetContextMethod", { awaitsStartup: true }),
    // The run must see every tool and hook that plugins and extensions register.
    "session.prompt": lazy(() => import("./prompt.method.js"), "PromptMethod", { awaitsStartup: true }),
    "session.interrupt": lazy(() => import("./interrupt.method.js"), "InterruptMethod", { slot: "interrupt", concurrent: true }),
    "session.await_idle": lazy(() => import("./await-idle.method.js"), "AwaitIdleMethod", { concurrent: true }),
    "session.set_budget": lazy(() => import("./set-budget.method.js"), "SetBudgetMethod"),
    "session.compact": lazy(() => import("./compact.method.js"), "CompactMethod"),
    "session.list": lazy(() => import("./list.method.js"), "ListMethod"),
    "session.get_tree": lazy(() => import("./get-tree.method.js"), "GetTreeMethod"),
    "session.navigate": lazy(() => import("./navigate.method.js"), "NavigateMethod"),
    "session.fork": lazy(() => import("./fork.method.js"), "ForkMethod"),
    "session.new": lazy(() => import("./new.method.js"), "NewMethod"),
    "session.switch": lazy(() => import("./switch.method.js"), "SwitchMethod"),
    "session.rewind": lazy(() => import("./rewind.method.js"), "RewindMethod"),
    "session.export": lazy(() => import("./export.method.js"), "ExportMethod"),
  },
} satisfies MethodFamily;
