import type * as PiAi from "@mariozechner/pi-ai";
import { createRequire } from "node:module";
import { RpcError } from "../kernel/rpc-error.js";

type Validator = ((value: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

export type StructuredVerdict = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * A prompt's `outputSchema` (docs/headless.md, "Structured output"): the run's final answer must be one
 * JSON value valid against it. An answer that is not gets up to `MAX_REPAIRS` repair turns (a user
 * message naming the problems); then the run ends with `structured_output_invalid`. Ajv is loaded
 * only when a schema is given, so runs without one load nothing; it is required synchronously (it is a
 * CommonJS package) because a prompt's admission is synchronous.
 */
export class StructuredOutput {
  static readonly MAX_REPAIRS = 2;
  private repairsUsed = 0;

  private constructor(
    readonly schema: Record<string, unknown>,
    private readonly validator: Validator,
  ) {}

  /** Compiles the schema; an invalid one is refused before anything is admitted. */
  static compile(schema: unknown): StructuredOutput {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new RpcError("operation_failed", "outputSchema must be a JSON Schema object");
    const ajvModule = createRequire(import.meta.url)("ajv") as { default?: unknown };
    const Ajv = (ajvModule.default ?? ajvModule) as new (options: object) => { compile(schema: object): Validator };
    try {
      return new StructuredOutput(schema as Record<string, unknown>, new Ajv({ allErrors: true, strict: false }).compile(schema));
    } catch (error) {
      throw new RpcError("operation_failed", `outputSchema is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }

  judge(reply: PiAi.AssistantMessage | undefined): StructuredVerdict {
    const text = (reply?.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])).join("").trim();
    let value: unknown;
    try {
      value = JSON.parse(StructuredOutput.unfence(text));
    } catch {
      return { ok: false, problem: text === "" ? "the answer is empty" : "the answer is not JSON" };
    }
    if (this.validator(value)) return { ok: true, value };
    const problems = (this.validator.errors ?? []).slice(0, 10).map((error) => `${error.instancePath || "(root)"} ${error.message ?? "is invalid"}`);
    return { ok: false, problem: problems.join("; ") || "the answer does not match the schema" };
  }

  /** The repair prompt, or undefined once the repairs are used up. */
  repair(problem: string): string | undefined {
    if (this.repairsUsed >= StructuredOutput.MAX_REPAIRS) return undefined;
    this.repairsUsed++;
    return [
      `Your final answer must be a single JSON value that matches this JSON Schema, and nothing else: ${problem}.`,
      `Schema: ${JSON.stringify(this.schema)}`,
      "Reply with the JSON value only.",
    ].join("\n");
  }

  /** A model often wraps JSON in a Markdown fence; the value inside is the answer. */
  private static unfence(text: string): string {
    const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text);
    return fenced ? fenced[1] : text;
  }
}
