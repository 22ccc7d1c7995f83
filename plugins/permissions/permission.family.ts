import { lazy, type MethodFamily } from "../../core/family/family-api.js";
import { PERMISSIONS, type PermissionPort } from "./permission.port.js";

/** `permission.*`, bound to one plugin instance's gateway (in the family's own scope). */
export function permissionFamily(gateway: PermissionPort) {
  return {
    family: "permission",
    methods: {
      // The policy is attached by this plugin's extension half, which runs in the deferred startup.
      "permission.set_policy": lazy(() => import("./set-policy.method.js"), "SetPolicyMethod", { awaitsStartup: true }),
      "permission.list": lazy(() => import("./list-permissions.method.js"), "ListPermissionsMethod", { awaitsStartup: true }),
      "permission.resolve": lazy(() => import("./resolve-permission.method.js"), "ResolvePermissionMethod", { awaitsStartup: true }),
      "permission.set_sandbox": lazy(() => import("./set-sandbox.method.js"), "SetSandboxMethod", { awaitsStartup: true }),
    },
    register: (scope) => void scope.registerInstance(PERMISSIONS, gateway),
  } satisfies MethodFamily;
}
