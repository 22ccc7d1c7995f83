import { afterEach, describe, expect, it } from "@jest/globals";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZiProcess } from "../support/zi-process.js";

afterEach(() => ZiProcess.killAll());

const records = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));

describe("zi as a black box: journal repair keeps every complete line", () => {
  it("skips damaged complete lines in place, sets them and a torn tail aside in FILE.damaged, reports each once", async () => {
    const home = mkdtempSync(join(tmpdir(), "zi-e2e-repair-"));
    const first = new ZiProcess({ ziHome: home, args: ["--mode", "rpc"] });
    await first.call("m", "model.select", { provider: "faux", id: "echo" });
    await first.call("p", "session.prompt", { delivery: "direct", text: "hello" });
    await first.call("w", "session.await_idle");
    expect((await first.close()).code).toBe(0);
    const [name] = readdirSync(join(home, "sessions"));
    const file = join(home, "sessions", name);

    const base = readFileSync(file, "utf8").split("\n").length - 1; // complete lines before the damage
    const invalidUtf8 = Buffer.concat([Buffer.from('{"type":"custom","id":"bad1","parentId":null,"timestamp":"t","customType":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    appendFileSync(file, "{ not json, but complete }\n");
    appendFileSync(file, invalidUtf8);
    const damaged = readFileSync(file);
    appendFileSync(file, '{"type":"message","id":"torn'); // a crash mid-write: no LF

    const resumed = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", file] });
    const ready = await resumed.waitFor((f) => f.type === "ready");
    expect(ready.state.messageCount).toBe(2);
    expect(ready.state.model).toMatchObject({ type: "selected", provider: "faux", id: "echo" });
    await resumed.call("p", "session.prompt", { delivery: "direct", text: "after repair" });
    await resumed.call("w", "session.await_idle");
    expect((await resumed.close()).code).toBe(0);

    const repairLines = resumed.stderr.split("\n").filter((line) => line.includes(file));
    expect(repairLines).toEqual([
      `zi: session journal ${file}: skipped 2 malformed line(s); first at line ${base + 1} (invalid JSON); they stay in the journal, copies are in ${file}.damaged`,
      `zi: session journal ${file}: cut a torn last line at line ${base + 3} (invalid JSON); its bytes are in ${file}.damaged`,
    ]);
    // Every complete line is still there, byte for byte; new entries follow on a clean line.
    const after = readFileSync(file);
    expect(after.subarray(0, damaged.length).equals(damaged)).toBe(true);
    expect(after.subarray(damaged.length).toString("utf8")).toContain("after repair");
    const aside = records(`${file}.damaged`);
    expect(aside.map((r: any) => [r.line, r.problem, r.torn])).toEqual([[base + 1, "invalid JSON", false], [base + 2, "invalid UTF-8", false], [base + 3, "invalid JSON", true]]);
    expect(aside[0].text).toBe("{ not json, but complete }");
    expect(Buffer.from(aside[1].base64, "base64").equals(invalidUtf8.subarray(0, -1))).toBe(true);
    expect(aside[2].text).toBe('{"type":"message","id":"torn');
    expect(statSync(`${file}.damaged`).mode & 0o777).toBe(0o600);

    // Resumed again: the damaged lines are reported again but recorded only once.
    const again = new ZiProcess({ ziHome: home, args: ["--mode", "rpc", "--session", file] });
    expect((await again.waitFor((f) => f.type === "ready")).state.messageCount).toBe(4);
    expect((await again.close()).code).toBe(0);
    expect(again.stderr.split("\n").filter((line) => line.includes(file))).toEqual([repairLines[0]]);
    expect(records(`${file}.damaged`)).toHaveLength(3);
  });
});
