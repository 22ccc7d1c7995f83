import { SystemPromptHooks } from "../../core/context/system-prompt-hooks.js";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ExtensionHost } from "../../core/extensions/extension-host.js";
import { ExtensionModuleLoader } from "../../core/extensions/extension-module-loader.js";
import type { AgentSessionEvent } from "../../core/wire/session-types.js";
import { FakeExtensionSession } from "./fake-extension-session.js";

/** A fresh temp directory with the given files (path → content), created with their parents. */
export function writeTree(files: Record<string, string>, prefix = "zi-ext-"): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** An ExtensionHost over a fake session, recording stderr lines and every streamed event. */
export function hostFixture(loadTimeoutMs?: number) {
  const session = new FakeExtensionSession();
  const promptHooks = new SystemPromptHooks(() => {});
  const lines: string[] = [];
  const seen: AgentSessionEvent[] = [];
  session.subscribe((event) => void seen.push(event));
  const host = new ExtensionHost({
    session,
    loader: new ExtensionModuleLoader(false),
    cwd: "/work/project",
    ziHome: "/tmp/zi-home",
    log: (line) => lines.push(line),
    loadTimeoutMs,
    promptHooks,
  });
  const errors = () => seen.filter((event) => event.type === "extension_error");
  return { session, host, lines, seen, errors, promptHooks };
}
