/**
 * Reads fields of an untrusted JSON object with precise complaints ("models[0].id must be ...").
 * Throws an Error whose message is the complaint; callers add the file and decide what to skip.
 */
export class JsonShapeReader {
  constructor(
    private readonly value: Record<string, unknown>,
    private readonly where: string,
  ) {}

  static object(value: unknown, where: string): JsonShapeReader {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Error(`${where || "top level"} must be a JSON object`);
    }
    return new JsonShapeReader(value as Record<string, unknown>, where);
  }

  /** Rejects unknown keys: a typo such as "apikey" must not silently drop a setting. */
  allowKeys(keys: readonly string[]): this {
    for (const key of Object.keys(this.value)) {
      if (!keys.includes(key)) throw new Error(`${this.path(key)} is not a known field (expected one of ${keys.join(", ")})`);
    }
    return this;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.value, key) && this.value[key] !== undefined;
  }

  raw(key: string): unknown {
    return Object.hasOwn(this.value, key) ? this.value[key] : undefined;
  }

  path(key: string): string {
    return this.where ? `${this.where}.${key}` : key;
  }

  string(key: string, options: { nonEmpty?: boolean; maxBytes?: number } = {}): string {
    const value = this.raw(key);
    if (typeof value !== "string" || (options.nonEmpty && value === "")) {
      throw new Error(`${this.path(key)} must be a ${options.nonEmpty ? "non-empty " : ""}string`);
    }
    if (options.maxBytes !== undefined && Buffer.byteLength(value) > options.maxBytes) {
      throw new Error(`${this.path(key)} must be at most ${options.maxBytes} bytes`);
    }
    return value;
  }

  optionalString(key: string, options: { nonEmpty?: boolean; maxBytes?: number } = {}): string | undefined {
    return this.has(key) ? this.string(key, options) : undefined;
  }

  optionalBoolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    if (typeof value !== "boolean") throw new Error(`${this.path(key)} must be true or false`);
    return value;
  }

  optionalNumber(key: string, check: { min?: number; exclusiveMin?: number; integer?: boolean } = {}): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw(key);
    const ok =
      typeof value === "number" &&
      Number.isFinite(value) &&
      (!check.integer || Number.isInteger(value)) &&
      (check.min === undefined || value >= check.min) &&
      (check.exclusiveMin === undefined || value > check.exclusiveMin);
    if (!ok) {
      const bound = check.exclusiveMin !== undefined ? ` > ${check.exclusiveMin}` : check.min !== undefined ? ` >= ${check.min}` : "";
      throw new Error(`${this.path(key)} must be ${check.integer ? "an integer" : "a number"}${bound}`);
    }
    return value;
  }

  optionalObject(key: string): JsonShapeReader | undefined {
    return this.has(key) ? JsonShapeReader.object(this.raw(key), this.path(key)) : undefined;
  }

  array(key: string): unknown[] {
    const value = this.raw(key);
    if (!Array.isArray(value)) throw new Error(`${this.path(key)} must be an array`);
    return value;
  }

  optionalArray(key: string): unknown[] | undefined {
    return this.has(key) ? this.array(key) : undefined;
  }

  entries(): [string, unknown][] {
    return Object.entries(this.value);
  }

  plain(): Record<string, unknown> {
    return { ...this.value };
  }
}
