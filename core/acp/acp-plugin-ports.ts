import { container } from "tsyringe";
import type { ZiPlugin } from "../extensions/zi-plugin.js";

/**
 * The ports a session's plugins bind for their method families (the permissions gateway, the MCP
 * servers), reached the way the families reach them: each family registers into a scope of its own,
 * and the ACP front end resolves the port from it. Resolved once the session's plugins have loaded.
 */
export class AcpPluginPorts {
  constructor(private readonly plugins: () => readonly ZiPlugin[]) {}

  /** The port bound under `token`, or undefined when no loaded plugin binds it. */
  get<T>(token: symbol): T | undefined {
    for (const plugin of this.plugins()) {
      for (const family of plugin.families ?? []) {
        if (!family.register) continue;
        const scope = container.createChildContainer();
        family.register(scope);
        if (scope.isRegistered(token)) return scope.resolve<T>(token);
      }
    }
    return undefined;
  }
}
