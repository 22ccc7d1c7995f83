import { IsString, Matches } from "class-validator";
import { DescribedRule, MaxBytes } from "../../core/family/family-api.js";

/** A JSON object; the plugin itself checks it as an `mcpServers` entry and answers what is wrong. */
const IsServerEntry = () =>
  DescribedRule({
    name: "isServerEntry",
    // How `zi schema` describes this rule: merged into the property's schema.
    jsonSchema: { type: "object", description: "An mcpServers entry as in mcp.json: { command, args?, env?, cwd? } or { url, headers? }." },
    validate: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    message: () => "config must be an object (an mcpServers entry)",
  });

export class AddMcpParams {
  @IsString()
  @Matches(/^[A-Za-z0-9_.-]+$/, { message: "name must be 1-64 letters, digits, '.', '_' or '-'" })
  @MaxBytes(64)
  name!: string;

  @IsServerEntry()
  config!: Record<string, unknown>;
}
