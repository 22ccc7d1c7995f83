import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStore, contentHash } from "../../../core/journal/checkpoint-store.js";
import { tempDir } from "../../fixtures/journal/journal-fixtures.js";

describe("CheckpointStore", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
  });
  afterEach(() => cleanup());

  it("keeps each content once under its sha256, private (0600 in a 0700 directory)", () => {
    const store = new CheckpointStore(join(dir, "checkpoints"));
    const hash = store.put(Buffer.from("before\n"));
    expect(hash).toBe(contentHash(Buffer.from("before\n")));
    expect(store.put(Buffer.from("before\n"))).toBe(hash);
    expect(readdirSync(join(dir, "checkpoints"))).toEqual([hash]);
    expect(statSync(join(dir, "checkpoints")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "checkpoints", hash)).mode & 0o777).toBe(0o600);
    expect(store.get(hash)!.toString()).toBe("before\n");
  });

  it("answers nothing for an unknown hash, a name that is no hash, or a content that no longer matches its hash", () => {
    const store = new CheckpointStore(join(dir, "checkpoints"));
    const hash = store.put(Buffer.from("x"));
    expect(store.get("0".repeat(64))).toBeUndefined();
    expect(store.get("../../etc/passwd")).toBeUndefined();
    writeFileSync(join(dir, "checkpoints", hash), "tampered");
    expect(store.get(hash)).toBeUndefined();
  });
});
