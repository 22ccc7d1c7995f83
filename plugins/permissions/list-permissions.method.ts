import { RpcMethod, arrayOf, closed, inject, ref, type RpcHandler } from "../../core/family/family-api.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";

/** How a client that turned events off (`connection.set_events` `none`) still learns of requests. */
@RpcMethod({
  summary: "The tool calls waiting for a permission decision, oldest first (plugin family).",
  result: closed({ requests: arrayOf(ref("PermissionRequest")) }),
})
export class ListPermissionsMethod implements RpcHandler {
  constructor(@inject(PERMISSIONS) private readonly permissions: PermissionPort) {}

  handle() {
    return { requests: this.permissions.list() };
  }
}
