import { injectable } from "tsyringe";
import type { RpcMethodOptions, RpcMethodMetadata } from "./rpc-method-metadata.js";
import type { RpcHandler } from "./rpc-handler.js";

const METADATA = new WeakMap<Function, RpcMethodMetadata>();

/**
 * Marks a class as the handler of one RPC method. The class is also made injectable (its constructor
 * parameters are resolved from the connection's container), but nothing is registered globally: a family
 * module lists its classes, and the MethodRegistry decides at boot what is wired.
 */
export function RpcMethod(name: string, options: RpcMethodOptions) {
  return <T extends new (...args: any[]) => RpcHandler>(target: T): T => {
    if (METADATA.has(target)) throw new Error(`@RpcMethod applied twice to ${target.name}`);
    METADATA.set(target, {
      name,
      params: options.params,
      result: options.result,
      summary: options.summary,
      errors: options.errors ?? [],
      slot: options.slot ?? "ordinary",
      waits: options.waits ?? false,
      awaitsStartup: options.awaitsStartup ?? false,
    });
    injectable()(target);
    return target;
  };
}

export function getRpcMethodMetadata(target: Function): RpcMethodMetadata | undefined {
  return METADATA.get(target);
}
