import { describe, expect, it } from "@jest/globals";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JsonFile } from "../../../core/config/json-file.js";
import { FauxScript } from "../../../core/models/faux-script.js";
import { ModelsFileParser } from "../../../core/models/models-file-parser.js";

const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("files Zi reads are parsed depth-safe", () => {
  it("settings.json / auth.json (JsonFile): nesting past 64 levels reads as invalid JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "zi-deep-json-"));
    const path = join(dir, "settings.json");
    writeFileSync(path, `{"thinkingLevel":"off","x":${deep(20_000)}}`);
    expect(new JsonFile(path).readSync()).toEqual({ status: "invalid", reason: "is not valid JSON" });
    writeFileSync(path, `{"x":${deep(63)}}`);
    expect(new JsonFile(path).readSync()).toMatchObject({ status: "ok" });
  });

  it("models.json: nesting past 64 levels skips the file with the not-JSON warning", () => {
    const result = new ModelsFileParser().parse(`{"providers":{"p":${deep(20_000)}}}`, "models.json");
    expect(result.providers).toEqual([]);
    expect(result.warnings).toEqual(["models.json is not valid JSON; its providers are skipped"]);
  });

  it("a faux script nested past 64 levels is refused as not valid JSON", () => {
    expect(() => FauxScript.parse(`{"responses":${deep(20_000)}}`, "script.json")).toThrow(/invalid faux script script.json: not valid JSON/);
  });
});
