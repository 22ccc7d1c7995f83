import type { MethodFamily } from "../kernel/method-family.js";
import type { ZiExtension } from "./extension-api.js";

/**
 * A module compiled into Zi and composed at the composition root (bin/zi-cli.ts). It may contribute RPC
 * method families (added, or replacing a built-in one with `replaces: true`) and, through `extension`,
 * the same commands, tools and session hooks as any extension file. Plugins are activated in list
 * order, before the extension files, so their command and tool names take precedence.
 */
export interface ZiPlugin {
  readonly name: string;
  readonly families?: readonly MethodFamily[];
  readonly extension?: ZiExtension;
}
