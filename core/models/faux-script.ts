import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { JsonShapeReader } from "./json-shape-reader.js";
import type { FauxStep, FauxToolCallStep } from "./model-config-types.js";
import { parseJson } from "../kernel/json-depth.js";

const STEP_KEYS = ["text", "thinking", "toolCalls", "delayMs", "tokensPerSecond", "error"] as const;

/**
 * The `--faux-script` file: `{ "responses": [step, ...] }`, one step consumed per call of
 * `faux/scripted`. Validated whole at load time so a typo fails the CLI at startup, not mid-test.
 */
export class FauxScript {
  private cursor = 0;

  private constructor(private readonly steps: readonly FauxStep[]) {}

  static load(file: string): FauxScript {
    const path = resolve(file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new Error(`cannot read faux script ${path} (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
    }
    return FauxScript.parse(text, path);
  }

  static parse(text: string, label: string): FauxScript {
    try {
      let json: unknown;
      try {
        json = parseJson(text);
      } catch (error) {
        throw new Error(`not valid JSON (${(error as Error).message})`);
      }
      const root = JsonShapeReader.object(json, "").allowKeys(["responses"]);
      return new FauxScript(root.array("responses").map((step, index) => FauxScript.step(step, `responses[${index}]`)));
    } catch (error) {
      throw new Error(`invalid faux script ${label}: ${(error as Error).message}`);
    }
  }

  /** The next unused step, or undefined once the script is exhausted (the model then echoes). */
  next(): FauxStep | undefined {
    return this.cursor < this.steps.length ? this.steps[this.cursor++] : undefined;
  }

  get remaining(): number {
    return this.steps.length - this.cursor;
  }

  private static step(value: unknown, where: string): FauxStep {
    const reader = JsonShapeReader.object(value, where).allowKeys(STEP_KEYS);
    const step: FauxStep = {
      text: reader.optionalString("text"),
      thinking: reader.optionalString("thinking"),
      delayMs: reader.optionalNumber("delayMs", { min: 0 }),
      tokensPerSecond: reader.optionalNumber("tokensPerSecond", { exclusiveMin: 0 }),
    };
    const toolCalls = reader.optionalArray("toolCalls");
    if (toolCalls) step.toolCalls = toolCalls.map((call, index) => FauxScript.toolCall(call, `${reader.path("toolCalls")}[${index}]`));
    const error = reader.optionalObject("error")?.allowKeys(["message", "retryable"]);
    if (error) {
      if (step.toolCalls?.length) throw new Error(`${where}: "error" cannot be combined with "toolCalls"`);
      step.error = { message: error.string("message", { nonEmpty: true }), retryable: error.optionalBoolean("retryable") ?? false };
    }
    return step;
  }

  private static toolCall(value: unknown, where: string): FauxToolCallStep {
    const reader = JsonShapeReader.object(value, where).allowKeys(["name", "arguments", "id"]);
    const args = reader.optionalObject("arguments")?.plain() ?? {};
    return { name: reader.string("name", { nonEmpty: true }), arguments: args, id: reader.optionalString("id", { nonEmpty: true }) };
  }
}
