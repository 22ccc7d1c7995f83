import { afterEach, describe, expect, it } from "@jest/globals";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TmuxZi } from "../support/tmux-zi.js";

afterEach(() => TmuxZi.killAll());

describe("/permissions in the interactive mode (tmux)", () => {
  it("shows the sandbox mode from the state; picking read-only sets it (permission.set_sandbox) and bash then writes nothing", async () => {
    const zi = new TmuxZi({
      args: ["--model", "faux/scripted"],
      settings: { permissions: { default: "allow" }, sandbox: { mode: "workspace-write" } },
      fauxScript: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "tried it" }],
    });
    await zi.waitFor(TmuxZi.footerNames("faux/scripted"));
    zi.submit("/permissions");
    const shown = await zi.waitFor("sandbox: workspace-write");
    expect(shown).toContain("/permissions sandbox [read-only|workspace-write|off]");
    zi.submit("/permissions sandbox");
    await zi.waitFor((screen) => TmuxZi.selectedRow(screen).includes("workspace-write"));
    zi.keys("Up");
    await zi.waitFor((screen) => TmuxZi.selectedRow(screen).includes("read-only"));
    zi.keys("Enter");
    await zi.waitFor("sandbox: read-only");
    zi.submit("go");
    await zi.waitFor("tried it");
    expect(existsSync(join(zi.cwd, "made.txt"))).toBe(false);
    // A mode that does not exist is refused with the choices.
    zi.submit("/permissions sandbox nowhere");
    await zi.waitFor("sandbox takes read-only, workspace-write, off");
  }, 60000);
});
