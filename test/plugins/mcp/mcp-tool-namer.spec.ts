import { describe, expect, it } from "@jest/globals";
import { McpToolNamer } from "../../../plugins/mcp/mcp-tool-namer.js";

const PROVIDER_RULE = /^[A-Za-z0-9_-]{1,64}$/;

describe("McpToolNamer", () => {
  it("names a tool mcp__<server>__<tool>", () => {
    expect(McpToolNamer.name("everything", "get-tiny-image")).toBe("mcp__everything__get-tiny-image");
  });

  it("replaces characters outside [A-Za-z0-9_-] (SEP-986 allows . and /) with _", () => {
    expect(McpToolNamer.name("my.server", "admin.tools/list")).toBe("mcp__my_server__admin_tools_list");
    expect(McpToolNamer.prefix("my.server")).toBe("mcp__my_server__");
  });

  it("shortens a name over 64 characters deterministically, keeping the prefix and a hash of the originals", () => {
    const long = "synchronize-all-customer-data-across-multiple-systems";
    const name = McpToolNamer.name("enterprise-database-management", long);
    expect(name).toMatch(PROVIDER_RULE);
    expect(name).toHaveLength(64);
    expect(name.startsWith("mcp__enterprise-database-management__synchronize")).toBe(true);
    expect(McpToolNamer.name("enterprise-database-management", long)).toBe(name);
    // Two long names that share the first 55 characters still differ.
    expect(McpToolNamer.name("enterprise-database-management", `${long}-v2`)).not.toBe(name);
  });

  it("keeps a name of exactly 64 characters as it is", () => {
    const tool = "t".repeat(64 - "mcp__s__".length);
    expect(McpToolNamer.name("s", tool)).toBe(`mcp__s__${tool}`);
  });
});
