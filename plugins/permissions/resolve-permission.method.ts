import { EMPTY_RESULT, RpcMethod, inject, type RpcHandler } from "../../core/family/family-api.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";
import { ResolvePermissionParams } from "./resolve-permission.params.js";

@RpcMethod({
  params: ResolvePermissionParams,
  summary: "Answers a pending permission request: allow_once, allow_always (adds a session rule) or deny with a message (plugin family).",
  result: EMPTY_RESULT,
  errors: ["not_found"],
})
export class ResolvePermissionMethod implements RpcHandler<ResolvePermissionParams> {
  constructor(@inject(PERMISSIONS) private readonly permissions: PermissionPort) {}

  handle(params: ResolvePermissionParams) {
    this.permissions.resolve(params.requestId, params.decision, params.message);
    return {};
  }
}
