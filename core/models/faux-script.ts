import { resolve } from "node:path";
import { decodeText, FILE_LIMITS, readBoundedFileSync } from "../config/bounded-file-reader.js";
import { JsonShapeReader } from "./json-shape-reader.js";
import type { FauxStep, FauxToolCallStep } from "./model-config-types.js";
import { parseJson } from "../wire/json-depth.js";

const STEP_KEYS = ["profile", "text", "thinking", "toolCalls", "delayMs", "tokensPerSecond", "error"] as const;

/**
 * The `--faux-script` file: `{ "responses": [step, ...] }`, one step consumed per call of
 * `faux/scripted`. Validated whole at load time so a typo fails the CLI at startup, not mid-test.
 */
export class FauxScript {
  private readonly used: boolean[];

  private constructor(private readonly steps: readonly FauxStep[]) {
    this.used = steps.map(() => false);
  }

  static load(file: string): FauxScript {
    const path = resolve(file);
    // Read once at startup, before `ready`; the bounded reader refuses FIFOs and devices, so it cannot hang.
    const read = readBoundedFileSync(path, FILE_LIMITS.maxFauxScriptBytes);
    if (read.status === "missing") throw new Error(`cannot read faux script ${path} (ENOENT)`);
    if (read.status === "refused") throw new Error(`faux script ${path} ${read.reason}`);
    return FauxScript.parse(decodeText(read.bytes), path);
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

  /**
   * The next unused step for this caller, or undefined once none is left (the model then echoes). The
   * parent session takes the steps without `profile`; a delegated child takes only the steps naming its
   * profile, so parallel children never consume the parent's (or each other's) replies.
   */
  next(agent?: string): FauxStep | undefined {
    const index = this.steps.findIndex((step, at) => !this.used[at] && step.profile === agent);
    if (index < 0) return undefined;
    this.used[index] = true;
    return this.steps[index];
  }

  get remaining(): number {
    return this.used.filter((used) => !used).length;
  }

  private static step(value: unknown, where: string): FauxStep {
    const reader = JsonShapeReader.object(value, where).allowKeys(STEP_KEYS);
    const step: FauxStep = {
      profile: reader.optionalString("profile", { nonEmpty: true }),
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
