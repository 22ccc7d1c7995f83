import { RpcError } from "../../core/kernel/rpc-error.js";
import type { PermissionDecision, PermissionRequest, SandboxState } from "../../core/wire/session-types.js";
import type { EffectivePolicy, PolicyLayer } from "./permission-policy.js";
import type { PermissionPort } from "./permission.port.js";

/**
 * What the family's handlers hold: a light stand-in for the controller, which the plugin's extension
 * half loads in the deferred startup (so the policy engine, its glob and diff libraries, never delay
 * the first response). Every method waits for that startup (`awaitsStartup`), so it is attached by then.
 */
export class PermissionGateway implements PermissionPort {
  private controller: PermissionPort | undefined;

  attach(controller: PermissionPort): void {
    this.controller = controller;
  }

  setPolicy(layer: PolicyLayer): EffectivePolicy {
    return this.attached().setPolicy(layer);
  }

  list(): PermissionRequest[] {
    return this.attached().list();
  }

  resolve(requestId: string, decision: PermissionDecision, message?: string): void {
    this.attached().resolve(requestId, decision, message);
  }

  setSandbox(layer: Parameters<PermissionPort["setSandbox"]>[0]): SandboxState {
    return this.attached().setSandbox(layer);
  }

  private attached(): PermissionPort {
    if (!this.controller) throw new RpcError("operation_failed", "the permissions plugin was not loaded");
    return this.controller;
  }
}
