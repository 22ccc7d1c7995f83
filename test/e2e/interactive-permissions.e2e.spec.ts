import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TmuxZi } from "../support/tmux-zi.js";

const started: TmuxZi[] = [];
afterEach(() => {
  for (const zi of started.splice(0)) zi.kill();
});
const footerNames = (model: string) => (screen: string) => screen.split("\n").some((line) => /thinking \w+\s*$/.test(line) && line.includes(model));
const selectedRow = (screen: string): string => screen.split("\n").find((line) => line.includes("→ ")) ?? "";

describe("/permissions in the interactive mode (tmux)", () => {
  it("shows the sandbox mode from the state; picking read-only sets it (permission.set_sandbox) and bash then writes nothing", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { permissions: { default: "allow" }, sandbox: { mode: "workspace-write" } },
      fauxScript: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "tried it" }],
    });
    started.push(zi);
    await zi.waitFor(footerNames("faux/scripted"));
    zi.type("/permissions");
    zi.keys("Enter");
    const shown = await zi.waitFor("sandbox: workspace-write");
    expect(shown).toContain("/permissions sandbox [read-only|workspace-write|off]");
    zi.type("/permissions sandbox");
    zi.keys("Enter");
    await zi.waitFor((screen) => selectedRow(screen).includes("workspace-write"));
    zi.keys("Up");
    await zi.waitFor((screen) => selectedRow(screen).includes("read-only"));
    zi.keys("Enter");
    await zi.waitFor("sandbox: read-only");
    zi.type("go");
    zi.keys("Enter");
    await zi.waitFor("tried it");
    expect(existsSync(join(zi.cwd, "made.txt"))).toBe(false);
    // A mode that does not exist is refused with the choices.
    zi.type("/permissions sandbox nowhere");
    zi.keys("Enter");
    await zi.waitFor("sandbox takes read-only, workspace-write, off");
  }, 60000);
});
