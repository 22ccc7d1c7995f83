import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SandboxControl } from "../../../core/sandbox/sandbox-control.js";
import type { AgentTool } from "../../../core/session/agent-tool.js";
import type { PermissionAction, PermissionRule } from "../../../core/wire/session-types.js";
import { FindTool } from "../../../plugins/coding-tools/find.tool.js";
import { GrepTool } from "../../../plugins/coding-tools/grep.tool.js";
import { LsTool } from "../../../plugins/coding-tools/ls.tool.js";
import { RipgrepProcess } from "../../../plugins/coding-tools/ripgrep-process.js";
import { PermissionController } from "../../../plugins/permissions/permission-controller.js";
import { SessionHarness } from "../../support/session-harness.js";
import { makeContext, makeTempDir, textOf } from "../../support/tool-test-kit.js";

/**
 * A deny or ask rule on paths limits what grep, find and ls show under a directory, judged by the
 * permission layer on each file's real path; with real rg and with the Node search alike. The project
 * is `pkg`, a subdirectory, so `..` and absolute rules are met too.
 */
const FILES: Record<string, string> = {
  "pkg/secrets/key": "needle key\n",
  "pkg/secrets/.hidden": "needle hidden\n",
  "pkg/secrets/sub/deep": "needle deep\n",
  "pkg/Secrets/other": "needle other case\n",
  "pkg/notes/todo": "needle todo\n",
  "pkg/.env": "needle env\n",
  "pkg/src/a.ts": "needle a\n",
  "pkg/src/.env.example": "needle example\n",
  "private/p": "needle private\n",
  "public/q": "needle public\n",
};

let top: string;
let cwd: string;
let cleanup: () => void;
const ripgrep = RipgrepProcess.locate();

beforeAll(() => {
  ({ dir: top, cleanup } = makeTempDir("zi-search-scope-"));
  cwd = join(top, "pkg");
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(top, path)), { recursive: true });
    writeFileSync(join(top, path), content);
  }
  // Links into the denied place: neither backend follows one met below the root; named as the root, the rule judges its target.
  symlinkSync("../secrets/key", join(cwd, "src", "key-link"));
  symlinkSync("../secrets", join(cwd, "src", "secrets-link"));
});
afterAll(() => cleanup());

/** The gate's answer for one call (a client that allows what is asked), then the tool run with what the gate handed it. */
async function call(layer: { default?: PermissionAction; rules: PermissionRule[] }, tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  const controller = new PermissionController();
  const session = {
    sandbox: new SandboxControl({ mode: "off", network: false, writableRoots: [] }, []),
    toolGate: { setPolicy: () => undefined },
    appendPermissionEntry: () => undefined,
    approvals: { ask: async () => ({ decision: "allow_once", decidedBy: "client" }), settleWhere: () => undefined },
  };
  const services = { session, settings: { getGlobal: () => undefined, getProject: () => undefined }, project: { trusted: true } };
  controller.attach({ cwd }, services as never, () => undefined);
  controller.setPolicy(layer);
  const context = makeContext(cwd);
  const gate = await controller.decide({ toolCallId: "c", toolName: tool.name, args, declaration: (tool as { declaration?: never }).declaration }, { rewrittenBy: [] }, context.signal);
  if (gate.action === "deny") return "denied";
  return textOf(await tool.execute(gate.args, { ...context, ...(gate.mayRead ? { mayRead: gate.mayRead } : {}) }));
}

/** The same call with ripgrep and with the Node search: both must say the same. */
async function both(layer: { default?: PermissionAction; rules: PermissionRule[] }, name: "grep" | "find", args: Record<string, unknown>): Promise<string> {
  const make = (backend: string | false) => (name === "grep" ? new GrepTool(backend) : new FindTool(backend));
  const withRg = await call(layer, make(ripgrep!), args);
  const withNode = await call(layer, make(false), args);
  expect(withNode).toBe(withRg);
  return withRg;
}

const lines = (text: string) => text.split("\n").sort();
const grepNeedle = { pattern: "needle" };

describe("path rules limit what a tree search shows", () => {
  it("has ripgrep to compare with", () => expect(ripgrep).toBeDefined());

  const rules: PermissionRule[] = [
    { action: "deny", path: "secrets/**" },
    { action: "deny", path: ".env" },
    { action: "ask", path: "./notes/**" },
  ];

  it("grep and find over the cwd leave out what a deny or ask rule covers, dotfiles included; symlinks into it are not followed", async () => {
    expect(lines(await both({ rules }, "grep", grepNeedle))).toEqual(["Secrets/other:1: needle other case", "src/.env.example:1: needle example", "src/a.ts:1: needle a"]);
    expect(lines(await both({ rules }, "find", { pattern: "*" }))).toEqual(["Secrets/other", "src/.env.example", "src/a.ts"]);
    // grep's glob narrows, never brings a file back (it is not the guard: the rules are judged here).
    expect(await both({ rules }, "grep", { ...grepNeedle, glob: "**/key" })).toBe("No matches found.");
    // Without the rules the same calls show them (so the test above can fail).
    expect(lines(await both({ rules: [] }, "grep", grepNeedle))).toHaveLength(8);
  });

  it("a search rooted in the denied place is itself denied, however the path is spelled or linked", async () => {
    for (const path of ["secrets", "./secrets/", "src/../secrets", "secrets/sub", join(cwd, "secrets"), "src/secrets-link", "src/key-link"]) {
      expect([path, await both({ rules }, "grep", { ...grepNeedle, path })]).toEqual([path, "denied"]);
    }
    expect(await both({ rules }, "find", { pattern: "*", path: "src/secrets-link" })).toBe("denied");
  });

  it("a rule one level deep keeps out only what it covers, as it does for read", async () => {
    const shallow: PermissionRule[] = [{ action: "deny", path: "secrets/*" }];
    expect(lines(await both({ rules: shallow }, "grep", { ...grepNeedle, path: "secrets" }))).toEqual(["secrets/sub/deep:1: needle deep"]);
  });

  it("an absolute rule holds for a search outside the cwd (..); an outsideCwd rule denies the call", async () => {
    const absolute: PermissionRule[] = [{ action: "deny", path: `${top}/private/**` }];
    expect(lines(await both({ rules: absolute }, "grep", { ...grepNeedle, path: ".." })).filter((line) => line.startsWith(`${top}/`))).toEqual([`${top}/public/q:1: needle public`]);
    expect(lines(await both({ rules: [] }, "grep", { ...grepNeedle, path: ".." })).filter((line) => line.startsWith(`${top}/`))).toHaveLength(2);
    expect(await both({ rules: [{ action: "deny", outsideCwd: true }] }, "grep", { ...grepNeedle, path: ".." })).toBe("denied");
  });

  it("an ask rule that asked about the call itself, and was allowed, lets the search show what it covers", async () => {
    expect(await both({ rules }, "grep", { ...grepNeedle, path: "notes" })).toBe("notes/todo:1: needle todo");
  });

  it("a rule for another tool does not limit grep; one for read-only tools does", async () => {
    expect(lines(await both({ rules: [{ action: "deny", tool: "read", path: "secrets/**" }] }, "grep", grepNeedle))).toHaveLength(8);
    expect(lines(await both({ rules: [{ action: "deny", readOnly: true, path: "secrets/**" }] }, "grep", grepNeedle))).toHaveLength(5);
  });

  it("ls does not list (or count) the entries such a rule covers; a symlink is judged where it lies", async () => {
    const ls = new LsTool();
    expect(await call({ rules }, ls, {})).toBe("Secrets/\nsrc/");
    expect(await call({ rules }, ls, { path: "src" })).toBe(".env.example\na.ts\nkey-link\nsecrets-link/");
    expect(await call({ rules }, ls, { path: "secrets" })).toBe("denied");
    expect(await call({ rules: [] }, ls, {})).toBe(".env\nSecrets/\nnotes/\nsecrets/\nsrc/");
  });

  it("in a real session, the tool runner hands the gate's test to the tool: the model's grep of . never sees secrets/", async () => {
    const harness = await SessionHarness.create({ cwd, tools: [new GrepTool(ripgrep!)] });
    try {
      const controller = new PermissionController();
      controller.attach({ cwd }, { session: harness.session, settings: { getGlobal: () => ({ rules }), getProject: () => undefined }, project: { trusted: false } }, () => undefined);
      harness.runtime.respond(harness.runtime.toolCall("grep", grepNeedle, "call-1"), harness.runtime.text("done"));
      await harness.ask("search");
      const end = harness.events.find((event) => event.type === "tool_execution_end") as unknown as { result: { content: { text: string }[] } };
      expect(lines(end.result.content[0]!.text)).toEqual(["Secrets/other:1: needle other case", "src/.env.example:1: needle example", "src/a.ts:1: needle a"]);
    } finally {
      harness.dispose();
    }
  });
});
