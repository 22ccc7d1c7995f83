import { afterEach, describe, expect, it } from "@jest/globals";
import { EMPTY_RESULT, RpcError, RpcMethod, type MethodFamily, type RpcHandler } from "../../../core/family/family-api.js";
import { serveFamilies, type TestApplication } from "../../../core/testing/test-application.js";

const refusal = () => new RpcError("invalid_request", "invalid params", [{ field: "params.images", problem: "the model takes no images" }]);

@RpcMethod({ summary: "Refuses its params before doing anything.", result: EMPTY_RESULT })
class RefuseNowMethod implements RpcHandler {
  handle(): Record<string, never> {
    throw refusal();
  }
}

@RpcMethod({ summary: "Fails after it started.", result: EMPTY_RESULT })
class RefuseLaterMethod implements RpcHandler {
  async handle(): Promise<Record<string, never>> {
    throw refusal();
  }
}

const refuseFamily = { family: "refuse", methods: { "refuse.now": RefuseNowMethod, "refuse.later": RefuseLaterMethod } } satisfies MethodFamily;

const apps: TestApplication[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe("a handler's invalid_request", () => {
  it("thrown synchronously is a params problem (protocol_error, applied: no); once work may have started it is operation_failed", async () => {
    const app = serveFamilies([refuseFamily]);
    apps.push(app);
    app.send(app.record("a", "refuse.now"), app.record("b", "refuse.later"));
    const [a, b] = [await app.answer("a"), await app.answer("b")];
    expect(a).toMatchObject({ type: "protocol_error", id: "a", fatal: false, error: { code: "invalid_request", details: [{ field: "params.images", problem: "the model takes no images" }] } });
    expect(b).toMatchObject({ type: "response", id: "b", ok: false, error: { code: "operation_failed", applied: "unknown" } });
  });
});
