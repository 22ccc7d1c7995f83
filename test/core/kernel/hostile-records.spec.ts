import "reflect-metadata";
import { describe, expect, it } from "@jest/globals";
import { ValidateBy } from "class-validator";
import { RpcMethod } from "../../../core/kernel/rpc-method.decorator.js";
import { anyValue } from "../../../core/wire/json-schema.js";
import type { MethodFamily } from "../../../core/kernel/method-family.js";
import { serveFamilies } from "../../../core/testing/testing-api.js";
import { serveTestFamily, testFamily } from "../../support/test-family.js";

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** A validator with a bug: the kernel must answer a coded frame and keep the stack for stderr. */
class ThrowingParams {
  @ValidateBy({
    name: "explodes",
    validator: {
      validate: () => {
        throw new TypeError("validator internals");
      },
    },
  })
  value!: unknown;
}

@RpcMethod({ params: ThrowingParams, summary: "test method", result: anyValue() })
class ThrowingAdmissionMethod {
  handle() {
    return {};
  }
}

/** A result that cannot be encoded (BigInt): the response is a coded failure, not a crash. */
@RpcMethod({ summary: "test method", result: anyValue() })
class UnencodableResultMethod {
  handle() {
    return { big: 1n };
  }
}

const faultFamily: MethodFamily = { family: "fault", methods: { "fault.admit": ThrowingAdmissionMethod, "fault.result": UnencodableResultMethod } };

describe("connection: hostile records", () => {
  it("answers records nested past maxJsonDepth with invalid_request naming the field, whole record or param", async () => {
    const h = serveTestFamily();
    h.send(
      deep(20_000),
      `{"version":1,"id":"p","method":"test.echo","params":{"bytes":${deep(20_000)}}}`,
      `{"version":1,"id":"e","method":"test.echo","extra":${deep(100)}}`,
      `{"version":1,"id":"ok","method":"test.echo","params":{"bytes":1,"note":"${"[".repeat(50_000)}"}}`,
    );
    const [whole, param, envelope, ok] = await h.frames(4);
    expect(whole).toMatchObject({ type: "protocol_error", id: null, error: { code: "parse_error" } });
    expect(param).toMatchObject({
      type: "protocol_error",
      id: "p",
      error: { code: "invalid_request", details: [{ field: "params.bytes", problem: `nests deeper than ${h.limits.maxJsonDepth} levels` }] },
    });
    expect(envelope).toMatchObject({ id: "e", error: { code: "invalid_request", details: [{ field: "extra" }] } });
    expect(ok).toMatchObject({ type: "response", id: "ok", ok: true });
    expect(h.logs).toEqual([]);
  });

  it("turns an unexpected exception during admission into a coded frame with a generic message and logs the stack", async () => {
    const h = serveFamilies([testFamily, faultFamily]);
    h.send({ version: 1, id: "x", method: "fault.admit", params: { value: 1 } }, { version: 1, id: "after", method: "test.echo", params: { bytes: 0 } });
    const [fault, after] = await h.frames(2);
    expect(fault).toEqual({
      version: 1,
      sequence: 2,
      type: "protocol_error",
      id: "x",
      error: { code: "invalid_request", message: "the request could not be admitted" },
      fatal: false,
    });
    expect(JSON.stringify(fault)).not.toContain("validator internals");
    expect(after).toMatchObject({ type: "response", id: "after", ok: true });
    expect(h.logs.join("\n")).toMatch(/TypeError: validator internals\n\s+at /);
  });

  it("answers a result that cannot be encoded with operation_failed and logs why", async () => {
    const h = serveFamilies([testFamily, faultFamily]);
    h.send({ version: 1, id: "r", method: "fault.result" });
    const [failed] = await h.frames(1);
    expect(failed).toMatchObject({ type: "response", id: "r", ok: false, error: { code: "operation_failed", message: "internal error", applied: "unknown" } });
    expect(h.logs.join("\n")).toMatch(/BigInt/);
  });
});
