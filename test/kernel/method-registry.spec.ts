import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { IsString } from "class-validator";
import { container, inject } from "tsyringe";
import { MethodRegistry } from "../../core/kernel/method-registry.js";
import type { MethodFamily } from "../../core/kernel/method-family.js";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";

const PORT = Symbol.for("test.port");

@RpcMethod("alpha.one")
class AlphaOne implements RpcHandler {
  handle() {
    return { from: "alpha" };
  }
}

@RpcMethod("alpha.one")
class AlphaOneAgain implements RpcHandler {
  handle() {
    return {};
  }
}

@RpcMethod("beta.one")
class BetaInAlpha implements RpcHandler {
  handle() {
    return {};
  }
}

class Undecorated implements RpcHandler {
  handle() {
    return {};
  }
}

@RpcMethod("alpha.ported")
class NeedsPort implements RpcHandler {
  constructor(@inject(PORT) private readonly port: { value: string }) {}
  handle() {
    return { value: this.port.value };
  }
}

class EmptyParams {}

@RpcMethod("alpha.empty", { params: EmptyParams })
class EmptyDto implements RpcHandler {
  handle() {
    return {};
  }
}

class NameParams {
  @IsString()
  name!: string;
}

@RpcMethod("alpha.one", { params: NameParams })
class ReplacementOne implements RpcHandler<NameParams> {
  handle(params: NameParams) {
    return { from: "replacement", name: params.name };
  }
}

const build = (...families: MethodFamily[]) => MethodRegistry.build(container.createChildContainer(), families);

describe("MethodRegistry wiring fails at boot", () => {
  it("on a duplicate method name", () => {
    expect(() => build({ family: "alpha", methods: [AlphaOne, AlphaOneAgain] })).toThrow(/registered twice/);
  });

  it("on a method outside its family's prefix", () => {
    expect(() => build({ family: "alpha", methods: [BetaInAlpha] })).toThrow(/outside its family/);
  });

  it("on a class without @RpcMethod", () => {
    expect(() => build({ family: "alpha", methods: [Undecorated] })).toThrow(/no @RpcMethod/);
  });

  it("on an unbound port", () => {
    expect(() => build({ family: "alpha", methods: [NeedsPort] })).toThrow(/cannot wire method "alpha.ported"/);
  });

  it("on a params DTO without validation rules", () => {
    expect(() => build({ family: "alpha", methods: [EmptyDto] })).toThrow(/declares no validated properties/);
  });

  it("on the same family twice without `replaces`, and on a replacement of nothing", () => {
    expect(() => build({ family: "alpha", methods: [AlphaOne] }, { family: "alpha", methods: [] })).toThrow(/registered twice/);
    expect(() => build({ family: "gamma", methods: [], replaces: true })).toThrow(/replaces nothing/);
  });
});

describe("MethodRegistry composition", () => {
  it("lets a family bind its own ports through register()", () => {
    const registry = build({
      family: "alpha",
      methods: [NeedsPort],
      register: (c) => c.registerInstance(PORT, { value: "bound" }),
    });
    expect(registry.get("alpha.ported")!.handler.handle({}, {} as never)).toEqual({ value: "bound" });
  });

  it("lets a plugin family replace a built-in one, params and all", () => {
    const registry = build({ family: "alpha", methods: [AlphaOne] }, { family: "alpha", methods: [ReplacementOne], replaces: true });
    const method = registry.get("alpha.one")!;
    expect(method.params).toBe(NameParams);
    expect(method.handler.handle({ name: "n" }, {} as never)).toEqual({ from: "replacement", name: "n" });
    expect(registry.names()).toEqual(["alpha.one"]);
  });
});
