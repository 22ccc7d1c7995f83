import type { ModelEventStream } from "../../core/models/buffered-model-stream.js";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type * as PiAi from "@mariozechner/pi-ai";
import { ZiPaths } from "../../core/config/zi-paths.js";
import { ModelRegistry } from "../../core/models/model-registry.js";

/** A fresh ZI_HOME and project directory per test, plus a warning sink instead of stderr. */
export class TempZiHome {
  readonly root = mkdtempSync(join(tmpdir(), "zi-models-test-"));
  readonly home = join(this.root, "home");
  readonly project = join(this.root, "project");
  readonly env: NodeJS.ProcessEnv = { ZI_HOME: this.home };
  readonly paths = new ZiPaths({ env: this.env, cwd: this.project });
  readonly warnings: string[] = [];
  readonly warn = (message: string): void => void this.warnings.push(message);

  write(file: string, content: unknown): string {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  }

  /** A registry over this home. */
  registry(options: { fauxScriptFile?: string } = {}): ModelRegistry {
    return new ModelRegistry({ paths: this.paths, env: this.env, warn: this.warn, ...options });
  }

  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export function userContext(text: string): PiAi.Context {
  return { messages: [{ role: "user", content: text, timestamp: Date.now() }] };
}

export async function drain(stream: ModelEventStream): Promise<{ events: PiAi.AssistantMessageEvent[]; message: PiAi.AssistantMessage }> {
  const events: PiAi.AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, message: await stream.result() };
}

export function textOf(message: PiAi.AssistantMessage): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
}
