import type { PermissionDecision, PermissionRequest, SandboxMode, SandboxState } from "../../core/wire/session-types.js";
import type { EffectivePolicy, PolicyLayer } from "./permission-policy.js";

/** Injection token of the `permission.*` family's one dependency, bound by the family's own `register`. */
export const PERMISSIONS = Symbol.for("zi.plugin.permissions");

export interface PermissionPort {
  /** Replaces the client's layer of the policy; pending requests it now decides are settled. */
  setPolicy(layer: PolicyLayer): EffectivePolicy;
  /** The pending requests, oldest first. */
  list(): PermissionRequest[];
  /** Throws RpcError `not_found` for an unknown or already settled request. */
  resolve(requestId: string, decision: PermissionDecision, message?: string): void;
  /** Replaces the client's layer of the sandbox (docs/sandbox.md); returns the sandbox now. */
  setSandbox(layer: { mode: SandboxMode; network?: boolean; writableRoots?: string[] }): SandboxState;
}
