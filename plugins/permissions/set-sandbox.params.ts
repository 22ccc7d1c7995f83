import { IsArray, IsBoolean, IsIn } from "class-validator";
import { DescribedRule, Optional, SANDBOX_MODES, type SandboxMode } from "../../core/family/family-api.js";

const MAX_WRITABLE_ROOTS = 64;

const absolutePaths = (value: unknown): boolean =>
  Array.isArray(value) && value.length <= MAX_WRITABLE_ROOTS && value.every((root) => typeof root === "string" && root.startsWith("/") && !root.includes("\0"));

const IsAbsolutePaths = () =>
  DescribedRule({
    name: "isAbsolutePaths",
    // How `zi schema` describes this rule: merged into the property's schema.
    jsonSchema: { maxItems: MAX_WRITABLE_ROOTS, items: { type: "string", pattern: "^/" } },
    validate: absolutePaths,
    message: () => `writableRoots must be at most ${MAX_WRITABLE_ROOTS} absolute paths`,
  });

export class SetSandboxParams {
  @IsIn(SANDBOX_MODES)
  mode!: SandboxMode;

  @Optional()
  @IsBoolean()
  network?: boolean;

  @Optional()
  @IsArray()
  @IsAbsolutePaths()
  writableRoots?: string[];
}
