import "reflect-metadata";
import { container as rootContainer, type DependencyContainer, type InjectionToken } from "tsyringe";
import { CANCELLATION, EVENT_MODE, EVENT_STREAM, STATE_SNAPSHOT } from "../kernel/kernel-ports.js";
import type { MethodFamily } from "../kernel/method-family.js";
import { MethodRegistry } from "../kernel/method-registry.js";
import { COMMANDS } from "../ports/commands.port.js";
import { MODELS } from "../ports/model.port.js";
import { SESSION } from "../ports/session.port.js";
import { SESSIONS } from "../ports/sessions.port.js";
import { THINKING } from "../ports/thinking.port.js";
import type { TokenInstances } from "./rpc-application.js";
import type { SessionModule } from "./session-module.js";
import type { KernelBindings } from "./kernel-bindings.js";

export type { KernelBindings };

/**
 * The DI half of the composition root: binds the ports in a child container and builds the method
 * registry from the families. Loaded lazily (it pulls in tsyringe, class-validator and every family),
 * right after `ready` is written.
 */
export class MethodWiring {
  static wire(module: SessionModule, kernel: KernelBindings, families: readonly MethodFamily[], overrides?: TokenInstances): MethodRegistry {
    const container = rootContainer.createChildContainer();
    container.registerInstance(SESSION, module.session);
    container.registerInstance(SESSIONS, module.sessions);
    container.registerInstance(MODELS, module.models);
    container.registerInstance(THINKING, module.thinking);
    container.registerInstance(COMMANDS, module.commands);
    container.registerInstance(EVENT_MODE, kernel.eventMode);
    container.registerInstance(STATE_SNAPSHOT, kernel.state);
    container.registerInstance(EVENT_STREAM, kernel.events);
    container.registerInstance(CANCELLATION, kernel.cancellation);
    if (!overrides) return MethodRegistry.build(container, families);
    bind(container, overrides);
    const overridden = families.map((family) => ({ ...family, register: (scope: DependencyContainer) => (family.register?.(scope), bind(scope, overrides)) }));
    return MethodRegistry.build(container, overridden);
  }
}

function bind(scope: DependencyContainer, instances: TokenInstances): void {
  // Reflect.ownKeys, unlike Object.keys or Object.entries, also yields symbol-keyed tokens.
  for (const token of Reflect.ownKeys(instances)) scope.registerInstance(token as InjectionToken<unknown>, instances[token]);
}
