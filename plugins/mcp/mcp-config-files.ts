import { existsSync } from "node:fs";
import { join } from "node:path";
import { JsonFile } from "../../core/config/json-file.js";
import type { PluginServices, ProjectContent } from "../../core/extensions/plugin-services.js";
import type { McpServerConfigParser, McpServerEntry, McpServerSource } from "./mcp-server-config.js";

/** `toolSearch`: `off` (every tool's schema), `auto` (the search tool past the threshold), `on` (always the search tool). */
export type McpToolSearch = "off" | "auto" | "on";

export interface McpConfiguration {
  servers: McpServerEntry[];
  toolSearch: McpToolSearch;
}

export interface McpConfigFilesOptions {
  ziHome: string;
  /** The project's `.zi/` and its trust decision. */
  project: ProjectContent;
  /** A file that cannot be used: one stderr line and an `extension_error` naming it. */
  report: PluginServices["report"];
}

const SEARCH_MODES: readonly McpToolSearch[] = ["off", "auto", "on"];

/**
 * `ZI_HOME/mcp.json`, then the project's `.zi/mcp.json` only in a trusted project (it starts
 * processes, like a project extension). A project entry replaces a global one of the same name.
 */
export class McpConfigFiles {
  constructor(
    private readonly options: McpConfigFilesOptions,
    private readonly parser: McpServerConfigParser,
  ) {}

  get globalFile(): string {
    return join(this.options.ziHome, "mcp.json");
  }

  get projectFile(): string {
    return join(this.options.project.dir, "mcp.json");
  }

  async read(): Promise<McpConfiguration> {
    const byName = new Map<string, McpServerEntry>();
    let toolSearch: McpToolSearch = "off";
    const files: [string, McpServerSource][] = [[this.globalFile, "global"]];
    if (this.options.project.trusted) files.push([this.projectFile, "project"]);
    else if (existsSync(this.projectFile)) await this.options.report(this.projectFile, this.options.project.untrustedReason, "not loaded");
    for (const [file, source] of files) {
      const read = await new JsonFile(file).read();
      if (read.status === "missing") continue;
      if (read.status === "invalid") {
        await this.options.report(file, `${read.reason}`);
        continue;
      }
      const { mcpServers, toolSearch: mode } = read.value;
      if (mode !== undefined) {
        if (SEARCH_MODES.includes(mode as McpToolSearch)) toolSearch = mode as McpToolSearch;
        else await this.options.report(file, `toolSearch must be one of ${SEARCH_MODES.join(", ")}`);
      }
      if (mcpServers === undefined) continue;
      if (typeof mcpServers !== "object" || mcpServers === null || Array.isArray(mcpServers)) {
        await this.options.report(file, "mcpServers must be an object of servers by name");
        continue;
      }
      for (const [name, raw] of Object.entries(mcpServers)) {
        const entry = this.parser.parse(name, raw, source);
        if (entry) byName.set(name, entry);
        else byName.delete(name);
      }
    }
    return { servers: [...byName.values()], toolSearch };
  }
}
