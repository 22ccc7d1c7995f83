import { createHash } from "node:crypto";
import { MCP_LIMITS } from "./mcp-limits.js";

const UNSAFE = /[^A-Za-z0-9_-]/g;

/**
 * Zi's name of a server tool: `mcp__<server>__<tool>`, each part with every character outside
 * `[A-Za-z0-9_-]` replaced by `_`. A name over 64 characters keeps its first 55 and ends in `_` and
 * 8 hex digits of a hash of the original server and tool names: the same tool always gets the same
 * name, in every session, and two long names that share a prefix still differ.
 */
export class McpToolNamer {
  static prefix(server: string): string {
    return `mcp__${server.replace(UNSAFE, "_")}__`;
  }

  static name(server: string, tool: string): string {
    const full = `${McpToolNamer.prefix(server)}${tool.replace(UNSAFE, "_")}`;
    if (full.length <= MCP_LIMITS.maxToolNameChars) return full;
    const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
    return `${full.slice(0, MCP_LIMITS.maxToolNameChars - 9)}_${hash}`;
  }
}
