import type { MethodFamily } from "../kernel/method-family.js";
import type { ZiExtensionApi } from "./extension-api.js";
import type { PluginServices } from "./plugin-services.js";

/**
 * A module compiled into Zi and composed at the composition root (bin/zi-cli.ts). It may contribute RPC
 * method families (added, or replacing a built-in one with `replaces: true`) and, through `extension`,
 * the same commands, tools and session hooks as any extension file. Plugins are activated in list
 * order, before the extension files, so their command and tool names take precedence.
 */
export interface ZiPlugin {
  readonly name: string;
  readonly families?: readonly MethodFamily[];
  /** An extension; `services` reach what extension files cannot (absent when a host has none, e.g. in tests). */
  readonly extension?: (zi: ZiExtensionApi, services: PluginServices | undefined) => void | Promise<void>;
  /**
   * Loads the modules `extension` imports (and what they compute once per process from constants),
   * without activating anything: for a front end with idle time
   * before its first session (ACP, between `initialize` and `session/new`), so that session does not wait
   * for them. Never rejects with anything but a load failure, which the activation then reports.
   */
  readonly preload?: () => Promise<unknown>;
}
