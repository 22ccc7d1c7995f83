import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BashOutputCollector } from "../../../plugins/coding-tools/bash-output-collector.js";
import { makeTempDir } from "../../support/tool-test-kit.js";

describe("BashOutputCollector", () => {
  let dir: string;
  let cleanup: () => void;

  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  it("keeps output within bounds in memory only", async () => {
    const collector = new BashOutputCollector(join(dir, "logs"), 10, 100);
    collector.append("one\n");
    collector.append("two");
    expect(await collector.close()).toEqual({ text: "one\ntwo", truncated: false, totalBytes: 7, totalLines: 2 });
    expect(existsSync(join(dir, "logs"))).toBe(false);
  });

  it("reports a cut whenever older output was dropped, even when the rest fits exactly", async () => {
    const collector = new BashOutputCollector(join(dir, "logs"), 100, 20);
    for (const line of ["aaaaaaaa1\n", "aaaaaaaa2\n", "aaaaaaaa3\n", "aaaaaaaa4\n"]) collector.append(line);
    const result = await collector.close();
    expect(result).toMatchObject({ text: "aaaaaaaa3\naaaaaaaa4\n", truncated: true, totalBytes: 40, totalLines: 4 });
    expect(readFileSync(result.logPath!, "utf8")).toBe("aaaaaaaa1\naaaaaaaa2\naaaaaaaa3\naaaaaaaa4\n");
  });

  it("spills on the line bound too", async () => {
    const collector = new BashOutputCollector(join(dir, "logs"), 2, 1000);
    collector.append("1\n2\n3\n");
    const result = await collector.close();
    expect(result).toMatchObject({ text: "2\n3\n", truncated: true, totalLines: 3 });
    expect(readFileSync(result.logPath!, "utf8")).toBe("1\n2\n3\n");
  });

  it("reports why the full log could not be kept", async () => {
    writeFileSync(join(dir, "blocked"), "a file where the log directory should be");
    const collector = new BashOutputCollector(join(dir, "blocked", "logs"), 1, 1000);
    collector.append("1\n2\n");
    const result = await collector.close();
    expect(result.logPath).toBeUndefined();
    expect(result.logError).toMatch(/ENOTDIR|EEXIST/);
    expect(result).toMatchObject({ text: "2\n", truncated: true });
  });
});
