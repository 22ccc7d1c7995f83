import { RpcMethod, inject, ref, closed, type RpcHandler } from "../../core/family/family-api.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";
import { SetSandboxParams } from "./set-sandbox.params.js";

@RpcMethod({
  params: SetSandboxParams,
  summary: "Sets where bash runs from now on: the sandbox mode, its network, extra writable directories (docs/sandbox.md); returns the sandbox as the state shows it (plugin family).",
  result: closed({ sandbox: ref("SandboxState") }),
})
export class SetSandboxMethod implements RpcHandler<SetSandboxParams> {
  constructor(@inject(PERMISSIONS) private readonly permissions: PermissionPort) {}

  handle(params: SetSandboxParams) {
    const layer = {
      mode: params.mode,
      ...(params.network === undefined ? {} : { network: params.network }),
      ...(params.writableRoots === undefined ? {} : { writableRoots: params.writableRoots }),
    };
    return { sandbox: this.permissions.setSandbox(layer) };
  }
}
