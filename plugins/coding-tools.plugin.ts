import { join } from "node:path";
import type { ZiExtensionApi } from "../core/extensions/extension-api.js";
import type { ZiPlugin } from "../core/extensions/zi-plugin.js";
import { createCodingTools } from "./coding-tools/coding-tools.factory.js";

/**
 * Zi's built-in coding tools (`read`, `write`, `edit`, `bash`, `ls`, `grep`, `find`, `update_plan`),
 * delivered through the same extension API as any extension: the first plugin. Because plugins load
 * before extension files, an extension cannot take these tool names.
 */
export const codingToolsPlugin: ZiPlugin = {
  name: "coding-tools",
  extension(zi: ZiExtensionApi): void {
    const tools = createCodingTools({
      cwd: zi.cwd,
      logDir: join(zi.ziHome, "logs"),
      onPlanUpdate: async (steps) => zi.replaceWorkPlan(steps),
    });
    for (const tool of tools) zi.registerTool(tool);
  },
};
