import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { PermissionGateway } from "./permission-gateway.js";
import { permissionFamily } from "./permission.family.js";

/**
 * Tool permissions (docs/permissions.md): the policy every tool call passes after the extensions'
 * hooks, and the `permission.*` family through which the client sets it and answers its questions.
 * A factory, so that each Zi (and each test) gets its own gateway and controller.
 */
// Imported in the deferred startup: the family's handlers need only the gateway.
const loadController = () => import("./permission-controller.js");

export function createPermissionsPlugin() {
  const gateway = new PermissionGateway();
  return {
    name: "permissions",
    preload: loadController,
    async extension(zi, services) {
      const { PermissionController } = await loadController();
      const controller = new PermissionController();
      controller.attach(zi, services, (line) => void process.stderr.write(`${line}\n`));
      if (services) gateway.attach(controller);
    },
    families: [permissionFamily(gateway)],
  } satisfies ZiPlugin;
}
