import { join } from "node:path";
import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";

/**
 * Delegation: the `delegate` tool over profile-driven child sessions (docs/delegation.md). Replaceable
 * like the coding tools: a build without this plugin simply offers no `delegate`.
 */
export function createDelegationPlugin(): ZiPlugin {
  return {
    name: "delegation",
    async extension(zi, services) {
      // Extension hosts without services (unit tests of other plugins) get no delegation.
      if (!services) return;
      // Imported in the deferred startup, like the coding tools: nothing before a run needs them.
      const [{ DelegateTool }, { discoverProfiles }] = await Promise.all([import("./delegate.tool.js"), import("./profile-discovery.js")]);
      const profiles = await discoverProfiles(services.agentDirs, services.report);
      if (profiles.size === 0) return;
      zi.registerTool(
        new DelegateTool({
          profiles,
          host: services.session,
          children: services.childSessions,
          cwd: zi.cwd,
          ziHome: zi.ziHome,
          logDir: join(zi.ziHome, "logs"),
          parentTools: () => services.session.toolList(),
          depth: 0,
        }),
      );
    },
  };
}
