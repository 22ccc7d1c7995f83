import { describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** What `package.json` promises to dependants, checked against the build. */
describe("package exports", () => {
  it("zi/client loads the typed client, with its declarations", () => {
    const script = `const m = await import("zi/client"); console.log(JSON.stringify({ client: typeof m.ZiClient, error: typeof m.ZiRpcError }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ client: "function", error: "function" });
    expect(existsSync("dist/client/client-api.d.ts")).toBe(true);
  });

  it("zi/extension resolves, with the extension API declarations", () => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", `await import("zi/extension");`], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(existsSync("dist/core/extensions/extension-api.d.ts")).toBe(true);
  });
});
