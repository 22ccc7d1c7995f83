import "reflect-metadata";
import { afterEach, describe, expect, it } from "@jest/globals";
import { connectionFamily } from "../../../methods/connection/connection.family.js";
import { PermissionController } from "../../../plugins/permissions/permission-controller.js";
import { permissionFamily } from "../../../plugins/permissions/permission.family.js";
import { PermissionGateway } from "../../../plugins/permissions/permission-gateway.js";
import { serveFamilies } from "../../../core/testing/testing-api.js";
import { SessionHarness } from "../../support/session-harness.js";

let session: SessionHarness;
afterEach(() => session?.dispose());

describe("the permission family in the kernel, over in-memory streams", () => {
  it("validates params, answers set_policy, list and resolve (not_found for an unknown id)", async () => {
    session = await SessionHarness.create();
    const controller = new PermissionController();
    controller.attach({ cwd: "/tmp" }, { session: session.session, settings: { getGlobal: () => undefined, getProject: () => undefined }, project: { trusted: false } }, () => {});
    const gateway = new PermissionGateway();
    gateway.attach(controller);
    const kernel = serveFamilies([connectionFamily, permissionFamily(gateway)]);
    kernel.send(
      kernel.record("1", "permission.set_policy", { default: "ask", rules: [{ action: "allow", command: "git status" }] }),
      kernel.record("2", "permission.set_policy", { default: "ask", rules: [{ action: "allow", command: "a && b" }] }),
      kernel.record("3", "permission.set_policy", { default: "maybe" }),
      kernel.record("4", "permission.list"),
      kernel.record("5", "permission.resolve", { requestId: "nope", decision: "allow_once" }),
      kernel.record("6", "permission.resolve", { requestId: "nope", decision: "sure" }),
      kernel.record("7", "permission.set_policy", { default: "allow", rules: [{ action: "deny", path: "../secrets/**" }] }),
    );
    const frames = await kernel.frames(7);
    const byId = new Map<string, any>(frames.map((frame: any) => [frame.id, frame]));
    expect(byId.get("1").result).toEqual({ policy: { default: "ask", rules: [{ action: "allow", command: "git status", source: "runtime" }] } });
    expect(byId.get("2")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request", details: [{ field: "params.rules", problem: expect.stringContaining("one simple command") }] } });
    expect(byId.get("3")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });
    expect(byId.get("4").result).toEqual({ requests: [] });
    expect(byId.get("5")).toMatchObject({ ok: false, error: { code: "not_found", applied: "no" } });
    expect(byId.get("6")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request" } });
    expect(byId.get("7")).toMatchObject({ type: "protocol_error", error: { code: "invalid_request", details: [{ field: "params.rules", problem: expect.stringContaining('".." part') }] } });
    expect(await kernel.close()).toBe(0);
  });
});
