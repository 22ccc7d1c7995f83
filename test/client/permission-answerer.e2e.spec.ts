import { afterEach, describe, expect, it } from "@jest/globals";
import type { PermissionRequest } from "../../client/protocol-types.js";
import { BuiltZi } from "../support/built-zi.js";

afterEach(() => BuiltZi.killAll());

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

describe("ZiClient.onPermissionRequest against the built zi", () => {
  it("answers each request once: denies one with a message, allows the next always, and the rule it added asks no more", async () => {
    const zi = await BuiltZi.start({
      settings: { permissions: { default: "ask" } },
      fauxScript: { responses: [bash("echo one"), bash("echo two"), bash("echo two again"), { text: "done" }] },
    });
    await zi.selectModel("faux", "scripted");
    const seen: PermissionRequest[] = [];
    const stop = zi.onPermissionRequest((request) => {
      seen.push(request);
      return seen.length === 1 ? { decision: "deny", message: "not that one" } : "allow_always";
    });
    const result = await zi.promptAndAwait("go");
    stop();
    expect(result.completion?.text).toBe("done");
    expect(seen.map((request) => request.summary.command)).toEqual(["echo one", "echo two"]);
    const { requests } = await zi.listPermissions();
    expect(requests).toEqual([]);
    const policy = await zi.setPermissionPolicy({ default: "ask" });
    expect(policy.policy.rules).toEqual([{ action: "allow", tool: "bash", command: "echo two", source: "session" }]);
    expect((await zi.close()).code).toBe(0);
  });

  it("answers a request that was already waiting when the handler started", async () => {
    const zi = await BuiltZi.start({ settings: { permissions: { default: "ask" } }, fauxScript: { responses: [bash("echo waiting"), { text: "done" }] } });
    await zi.selectModel("faux", "scripted");
    const raised = new Promise<void>((resolve) => zi.onEvent((event) => event.type === "permission_requested" && resolve()));
    const watch = zi.watch();
    await watch.prompt("go", "direct");
    await raised;
    const stop = zi.onPermissionRequest(() => "allow_once");
    const settled = await watch.settle();
    stop();
    expect(settled.completion?.text).toBe("done");
    expect((await zi.close()).code).toBe(0);
  });
});
