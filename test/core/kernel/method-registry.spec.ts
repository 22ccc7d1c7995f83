import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { IsString } from "class-validator";
import { container, inject } from "tsyringe";
import { MethodRegistry } from "../../../core/kernel/method-registry.js";
import type { MethodFamily } from "../../../core/kernel/method-family.js";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { anyValue } from "../../../core/wire/json-schema.js";
import type { RpcHandler } from "../../../core/kernel/rpc-handler.js";

const PORT = Symbol.for("test.port");

@RpcMethod({ summary: "test method", result: anyValue() })
class AlphaOne implements RpcHandler {
  handle() {
    return { from: "alpha" };
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
class AlphaOneX implements RpcHandler {
  handle() {
    return {};
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
class AlphaOneXAgain implements RpcHandler {
  handle() {
    return {};
  }
}

@RpcMethod({ summary: "test method", result: anyValue() })
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

@RpcMethod({ summary: "test method", result: anyValue() })
class NeedsPort implements RpcHandler {
  constructor(@inject(PORT) private readonly port: { value: string }) {}
  handle() {
    return { value: this.port.value };
  }
}

class EmptyParams {}

@RpcMethod({ params: EmptyParams, summary: "test method", result: anyValue() })
class EmptyDto implements RpcHandler {
  handle() {
    return {};
  }
}

class NameParams {
  @IsString()
  name!: string;
}

@RpcMethod({ params: NameParams, summary: "test method", result: anyValue() })
class ReplacementOne implements RpcHandler<NameParams> {
  handle(params: NameParams) {
    return { from: "replacement", name: params.name };
  }
}

const build = (...families: MethodFamily[]) => MethodRegistry.build(container.createChildContainer(), families);

describe("MethodRegistry wiring fails at boot", () => {
  it("on a duplicate method name", () => {
    // Families "alpha" and "alpha.one" both admit the name "alpha.one.x".
    expect(() => build({ family: "alpha", methods: { "alpha.one.x": AlphaOneX } }, { family: "alpha.one", methods: { "alpha.one.x": AlphaOneXAgain } })).toThrow(
      /"alpha.one.x" is registered twice/,
    );
  });

  it("on one class listed under two names (a method's name is its one key in the table)", () => {
    expect(() => build({ family: "alpha", methods: { "alpha.one": AlphaOne, "alpha.two": AlphaOne } })).toThrow(/AlphaOne is listed as both "alpha.one" and "alpha.two"/);
  });

  it("on a method without a summary or a result schema", () => {
    @RpcMethod({ summary: " ", result: anyValue() })
    class NoSummary implements RpcHandler {
      handle() {
        return {};
      }
    }
    @RpcMethod({ summary: "s", result: undefined as never })
    class NoResult implements RpcHandler {
      handle() {
        return {};
      }
    }
    expect(() => build({ family: "alpha", methods: { "alpha.bare": NoSummary } })).toThrow(/has no summary/);
    expect(() => build({ family: "alpha", methods: { "alpha.bare": NoResult } })).toThrow(/declares no result schema/);
  });

  it("on a method outside its family's prefix", () => {
    expect(() => build({ family: "alpha", methods: { "beta.one": BetaInAlpha } })).toThrow(/outside its family/);
  });

  it("on a class without @RpcMethod", () => {
    expect(() => build({ family: "alpha", methods: { "alpha.undecorated": Undecorated } })).toThrow(/no @RpcMethod/);
  });

  it("on an unbound port", () => {
    expect(() => build({ family: "alpha", methods: { "alpha.ported": NeedsPort } })).toThrow(/cannot wire method "alpha.ported"/);
  });

  it("on a params DTO without validation rules", () => {
    expect(() => build({ family: "alpha", methods: { "alpha.empty": EmptyDto } })).toThrow(/declares no validated properties/);
  });

  it("on the same family twice without `replaces`, and on a replacement of nothing", () => {
    expect(() => build({ family: "alpha", methods: { "alpha.one": AlphaOne } }, { family: "alpha", methods: {} })).toThrow(/registered twice/);
    expect(() => build({ family: "gamma", methods: {}, replaces: true })).toThrow(/replaces nothing/);
  });
});

describe("MethodRegistry composition", () => {
  it("lets a family bind its own ports through register()", () => {
    const registry = build({
      family: "alpha",
      methods: { "alpha.ported": NeedsPort },
      register: (c) => c.registerInstance(PORT, { value: "bound" }),
    });
    expect(registry.get("alpha.ported")!.handler.handle({}, {} as never)).toEqual({ value: "bound" });
  });

  it("keeps a family's bindings in its own scope: another family can neither see nor change them", () => {
    @RpcMethod({ summary: "test method", result: anyValue() })
    class BetaNeedsPort implements RpcHandler {
      constructor(@inject(PORT) private readonly port: { value: string }) {}
      handle() {
        return { value: this.port.value };
      }
    }
    const host = container.createChildContainer();
    host.registerInstance(PORT, { value: "host" });
    const registry = MethodRegistry.build(host, [
      { family: "alpha", methods: { "alpha.ported": NeedsPort }, register: (scope) => void scope.registerInstance(PORT, { value: "alpha's own" }) },
      { family: "beta", methods: { "beta.ported": BetaNeedsPort } },
    ]);
    expect(registry.get("alpha.ported")!.handler.handle({}, {} as never)).toEqual({ value: "alpha's own" });
    // Resolved after alpha bound its own PORT, beta still gets the host's.
    expect(registry.get("beta.ported")!.handler.handle({}, {} as never)).toEqual({ value: "host" });
    expect(host.resolve<{ value: string }>(PORT).value).toBe("host");
    // A port only alpha binds is unbound for beta: wiring fails at boot.
    const unbound = container.createChildContainer();
    expect(() =>
      MethodRegistry.build(unbound, [
        { family: "alpha", methods: { "alpha.ported": NeedsPort }, register: (scope) => void scope.registerInstance(PORT, { value: "alpha's own" }) },
        { family: "beta", methods: { "beta.ported": BetaNeedsPort } },
      ]),
    ).toThrow(/cannot wire method "beta.ported"/);
  });

  it("lets a plugin family replace a built-in one, params and all", () => {
    const registry = build({ family: "alpha", methods: { "alpha.one": AlphaOne } }, { family: "alpha", methods: { "alpha.one": ReplacementOne }, replaces: true });
    const method = registry.get("alpha.one")!;
    expect(method.params).toBe(NameParams);
    expect(method.handler.handle({ name: "n" }, {} as never)).toEqual({ from: "replacement", name: "n" });
    expect(registry.names()).toEqual(["alpha.one"]);
  });
});
