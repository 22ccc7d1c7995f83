import { join } from "node:path";
import type { ZiExtensionApi } from "../../core/extensions/extension-api.js";
import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";

/**
 * Zi's built-in coding tools (the list of `coding-tools.factory.ts`), delivered through the same extension API as any extension: the first plugin. Because plugins load
 * before extension files, an extension cannot take these tool names.
 */
// Imported in the deferred startup, not with the plugin: the plugin module is needed for the method
// families (the first response), the tools only by a run (session.prompt awaits startup).
const loadFactory = () => import("./coding-tools.factory.js");

export const codingToolsPlugin: ZiPlugin = {
  name: "coding-tools",
  preload: loadFactory,
  async extension(zi: ZiExtensionApi): Promise<void> {
    const { createCodingTools } = await loadFactory();
    const tools = createCodingTools({ cwd: zi.cwd, logDir: join(zi.ziHome, "logs") });
    for (const tool of tools) zi.registerTool(tool);
  },
};
