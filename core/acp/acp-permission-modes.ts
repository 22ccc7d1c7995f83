import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionAction, PermissionRule } from "../wire/session-types.js";

/** The client's layer of the permission policy, as `permission.set_policy` takes it (docs/permissions.md). */
export interface PolicyLayer {
  default?: PermissionAction;
  rules: PermissionRule[];
}

/** One ACP session mode: the permission policy layer it sets (docs/acp.md, Modes). */
interface ModeDefinition {
  mode: acp.SessionMode;
  layer: PolicyLayer;
}

const READ_ONLY_ALLOWED = { readOnly: true, action: "allow" } as const;

/**
 * The modes an ACP session offers, each the client's layer of Zi's permission policy
 * (docs/permissions.md). `ask` is the default: an editor always answers `session/request_permission`,
 * and its users expect to approve edits and commands before they happen.
 */
export const ACP_MODES: ReadonlyMap<string, ModeDefinition> = new Map([
  [
    "ask",
    {
      mode: { id: "ask", name: "Ask", description: "Reads and searches run; every edit, command and other tool call asks first" },
      layer: { default: "ask", rules: [READ_ONLY_ALLOWED] },
    },
  ],
  [
    "accept-edits",
    {
      mode: { id: "accept-edits", name: "Accept edits", description: "Reads, searches and edits inside the working directory run; commands and edits elsewhere ask" },
      layer: {
        default: "ask",
        rules: [
          READ_ONLY_ALLOWED,
          // Edits are what tools declare as such (effect `edit`), wherever they come from.
          { effect: "edit", action: "allow" },
          { effect: "edit", outsideCwd: true, action: "ask" },
        ],
      },
    },
  ],
  [
    "full-access",
    {
      mode: { id: "full-access", name: "Full access", description: "Every tool call runs without asking (deny rules of settings.json still apply)" },
      layer: { default: "allow", rules: [] },
    },
  ],
]);

export const DEFAULT_ACP_MODE = "ask";
