import { join } from "node:path";
import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";

// Imported in the deferred startup, like the coding tools: nothing before a run needs them.
const loadModules = () => Promise.all([import("./delegate.tool.js"), import("./profile-discovery.js"), import("./profile-dirs.js")]);

/**
 * Delegation: the `delegate` tool over profile-driven child sessions (docs/delegation.md). Replaceable
 * like the coding tools: a build without this plugin simply offers no `delegate`.
 */
export function createDelegationPlugin(): ZiPlugin {
  return {
    name: "delegation",
    preload: loadModules,
    async extension(zi, services) {
      // Extension hosts without services (unit tests of other plugins) get no delegation.
      if (!services) return;
      const [{ DelegateTool }, { discoverProfiles }, { profileDirs }] = await loadModules();
      const profiles = await discoverProfiles(await profileDirs(zi.ziHome, services), (file, error) => services.report(file, error));
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
