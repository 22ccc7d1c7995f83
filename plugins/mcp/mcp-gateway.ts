import type { McpListing, McpPort, McpServerSummary } from "./mcp.port.js";
import { RpcError } from "../../core/kernel/rpc-error.js";

/**
 * What the `mcp.*` handlers hold: a light stand-in for the server manager, which the plugin's
 * extension half loads in the deferred startup, so that the manager, the connections and the result
 * converter are not compiled before a first response (docs/performance.md). Every `mcp.*` method
 * waits for that startup (`awaitsStartup`), so the manager is attached by the time one runs; until
 * then the gateway answers as a manager that was never activated does.
 */
export class McpGateway implements McpPort {
  private manager: McpPort | undefined;

  attach(manager: McpPort): void {
    this.manager = manager;
  }

  list(): McpListing {
    return this.manager ? this.manager.list() : { servers: [], toolSearch: false };
  }

  add(name: string, config: Record<string, unknown>): McpServerSummary {
    if (!this.manager) throw new RpcError("operation_failed", "the mcp plugin is not active");
    return this.manager.add(name, config);
  }

  remove(name: string): Promise<boolean> {
    return this.manager ? this.manager.remove(name) : Promise.resolve(false);
  }
}
