export interface IntegerBounds {
  min: number;
  max: number;
}

/**
 * Defensive readers over already schema-validated arguments. The session validates against the
 * JSON schema first, but a tool may also be called directly (extensions, tests), so each reader
 * re-checks its field and throws an error message the model can act on.
 */
export class ToolArgs {
  constructor(
    private readonly toolName: string,
    private readonly args: Record<string, unknown>,
  ) {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new Error(`${toolName}: arguments must be an object.`);
    }
  }

  requiredString(name: string, options: { allowEmpty?: boolean } = {}): string {
    const value = this.args[name];
    if (typeof value !== "string") throw new Error(`${this.toolName}: "${name}" must be a string.`);
    if (!options.allowEmpty && value.length === 0) throw new Error(`${this.toolName}: "${name}" must not be empty.`);
    return value;
  }

  optionalString(name: string): string | undefined {
    const value = this.args[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw new Error(`${this.toolName}: "${name}" must be a string.`);
    return value.length === 0 ? undefined : value;
  }

  optionalInteger(name: string, bounds: IntegerBounds): number | undefined {
    const value = this.args[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < bounds.min || value > bounds.max) {
      throw new Error(`${this.toolName}: "${name}" must be an integer from ${bounds.min} to ${bounds.max}.`);
    }
    return value;
  }

  optionalBoolean(name: string): boolean | undefined {
    const value = this.args[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "boolean") throw new Error(`${this.toolName}: "${name}" must be a boolean.`);
    return value;
  }

  raw(name: string): unknown {
    return this.args[name];
  }
}
