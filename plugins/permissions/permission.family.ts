import type { MethodFamily } from "../../core/family/family-api.js";
import { ListPermissionsMethod } from "./list-permissions.method.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";
import { ResolvePermissionMethod } from "./resolve-permission.method.js";
import { SetPolicyMethod } from "./set-policy.method.js";
import { SetSandboxMethod } from "./set-sandbox.method.js";

/** `permission.*`, bound to one plugin instance's gateway (in the family's own scope). */
export function permissionFamily(gateway: PermissionPort) {
  return {
    family: "permission",
    methods: {
      "permission.set_policy": SetPolicyMethod,
      "permission.list": ListPermissionsMethod,
      "permission.resolve": ResolvePermissionMethod,
      "permission.set_sandbox": SetSandboxMethod,
    },
    register: (scope) => void scope.registerInstance(PERMISSIONS, gateway),
  } satisfies MethodFamily;
}
