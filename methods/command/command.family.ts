import type { MethodFamily } from "../../core/family/family-api.js";
import { InvokeCommandMethod } from "./invoke-command.method.js";
import { ListCommandsMethod } from "./list-commands.method.js";

/** `command.*`: extension commands, reached only through the COMMANDS port. */
export const commandFamily = {
  family: "command",
  methods: { "command.list": ListCommandsMethod, "command.invoke": InvokeCommandMethod },
} satisfies MethodFamily;
