import { lazy, type MethodFamily } from "../../core/family/family-api.js";

/** `command.*`: extension commands, reached only through the COMMANDS port. */
export const commandFamily = {
  family: "command",
  // Commands are registered by plugins and extensions while they load.
  methods: {
    "command.list": lazy(() => import("./list-commands.method.js"), "ListCommandsMethod", { awaitsStartup: true }),
    "command.invoke": lazy(() => import("./invoke-command.method.js"), "InvokeCommandMethod", { concurrent: true, awaitsStartup: true }),
  },
} satisfies MethodFamily;
