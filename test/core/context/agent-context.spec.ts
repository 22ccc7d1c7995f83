import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentContextLoader } from "../../../core/context/agent-context-loader.js";
import { EnvironmentProbe } from "../../../core/context/environment-probe.js";
import { SessionContext } from "../../../core/context/session-context.js";
import { SystemPromptHooks } from "../../../core/context/system-prompt-hooks.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "zi-agent-context-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const skill = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nbody\n`;
const REASON = "the project is not trusted";

function layout() {
  const home = join(dir, "home");
  const project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  write(join(home, "SYSTEM.md"), "GLOBAL SYSTEM");
  write(join(home, "APPEND_SYSTEM.md"), "GLOBAL APPEND");
  write(join(home, "skills", "shared", "SKILL.md"), skill("shared"));
  write(join(project, "AGENTS.md"), "PROJECT AGENTS");
  write(join(project, ".zi", "SYSTEM.md"), "PROJECT SYSTEM");
  write(join(project, ".zi", "APPEND_SYSTEM.md"), "PROJECT APPEND");
  write(join(project, ".zi", "skills", "local", "SKILL.md"), skill("local"));
  write(join(project, ".zi", "skills", "shared", "SKILL.md"), skill("shared"));
  write(join(project, ".agents", "skills", "portable", "SKILL.md"), skill("portable"));
  return { home, project };
}

describe("EnvironmentProbe", () => {
  it("finds the git root by its .git entry (a directory, or a worktree's file), and none outside a repository", async () => {
    mkdirSync(join(dir, "clone", ".git"), { recursive: true });
    mkdirSync(join(dir, "clone", "a", "b"), { recursive: true });
    expect(await EnvironmentProbe.gitRoot(join(dir, "clone", "a", "b"))).toBe(join(dir, "clone"));
    write(join(dir, "worktree", ".git"), "gitdir: /elsewhere\n");
    expect(await EnvironmentProbe.gitRoot(join(dir, "worktree"))).toBe(join(dir, "worktree"));
    mkdirSync(join(dir, "plain"));
    expect(await EnvironmentProbe.gitRoot(join(dir, "plain"))).toBeNull();
  });

  it("reports the local date, platform and login shell", async () => {
    const environment = await EnvironmentProbe.probe({ cwd: dir, env: { SHELL: "/bin/zsh" }, now: new Date(2026, 0, 5, 23, 59), platform: "darwin", arch: "arm64" });
    expect(environment).toEqual({ cwd: dir, date: "2026-01-05", platform: "darwin (arm64)", shell: "/bin/zsh", gitRoot: null });
  });
});

describe("AgentContextLoader: the trust rule per kind of file", () => {
  it("an untrusted project: AGENTS.md loads; its SYSTEM.md, APPEND_SYSTEM.md and skills are skipped, each named once", async () => {
    const { home, project } = layout();
    const context = await AgentContextLoader.load({ ziHome: home, cwd: project, env: {}, projectTrusted: false, untrustedReason: REASON });
    expect(context.contextFiles).toEqual([{ path: join(project, "AGENTS.md"), content: "PROJECT AGENTS" }]);
    expect(context.system).toMatchObject({ path: join(home, "SYSTEM.md"), content: "GLOBAL SYSTEM" });
    expect(context.appends.map((file) => file.content)).toEqual(["GLOBAL APPEND"]);
    expect(context.skills.map((entry) => entry.name)).toEqual(["shared"]);
    expect(context.problems).toEqual([
      { source: join(project, ".zi", "SYSTEM.md"), error: REASON },
      { source: join(project, ".zi", "APPEND_SYSTEM.md"), error: REASON },
      { source: join(project, ".zi", "skills"), error: `skipped 2 project skill(s) (local, shared): ${REASON}` },
      { source: join(project, ".agents", "skills"), error: `skipped 1 project skill(s) (portable): ${REASON}` },
    ]);
  });

  it("a trusted project: its SYSTEM.md replaces ZI_HOME's, both appends apply, and ZI_HOME's skill wins a name", async () => {
    const { home, project } = layout();
    const context = await AgentContextLoader.load({ ziHome: home, cwd: project, env: {}, projectTrusted: true, untrustedReason: REASON });
    expect(context.system).toMatchObject({ origin: "project", content: "PROJECT SYSTEM" });
    expect(context.appends.map((file) => file.content)).toEqual(["GLOBAL APPEND", "PROJECT APPEND"]);
    expect(context.skills.map((entry) => [entry.name, entry.path])).toEqual([
      ["shared", join(home, "skills", "shared", "SKILL.md")],
      ["local", join(project, ".zi", "skills", "local", "SKILL.md")],
      ["portable", join(project, ".agents", "skills", "portable", "SKILL.md")],
    ]);
    expect(context.shadowedSkills).toEqual([{ name: "shared", path: join(project, ".zi", "skills", "shared", "SKILL.md"), shadowedBy: join(home, "skills", "shared", "SKILL.md") }]);
    expect(context.problems).toEqual([]);
  });
});

describe("SessionContext", () => {
  it("loads once, reports every problem, and renders the prompt with the run's tools and the hooks' additions", async () => {
    const { home, project } = layout();
    const reported: unknown[] = [];
    const lines: string[] = [];
    const context = new SessionContext({
      ziHome: home,
      cwd: project,
      env: {},
      projectTrusted: true,
      untrustedReason: REASON,
      log: (line) => lines.push(line),
      report: async (problem) => void reported.push(problem),
    });
    expect(context.childSections()).toBe("");
    expect(context.summary()).toBeUndefined();
    const seen: unknown[] = [];
    context.hooks.add("ext", (info) => (seen.push(info), "FROM HOOK"));
    const prompt = await context.render([{ name: "read", description: "Read a file." }]);
    await context.render([]);
    expect(prompt.startsWith("PROJECT SYSTEM")).toBe(true);
    expect(prompt).toContain("- read: Read a file.");
    expect(prompt.endsWith("FROM HOOK")).toBe(true);
    expect(seen).toEqual([{ cwd: project, tools: ["read"] }, { cwd: project, tools: [] }]);
    // A rehearsal's prompt (SessionRehearsal) asks no hook: the same prompt without their text.
    const bare = await context.render([{ name: "read", description: "Read a file." }], false);
    expect(seen).toHaveLength(2);
    expect(bare.endsWith("FROM HOOK")).toBe(false);
    expect(prompt.startsWith(bare)).toBe(true);
    expect(lines).toEqual([`zi: skill "shared" at ${join(project, ".zi", "skills", "shared", "SKILL.md")} is shadowed by ${join(home, "skills", "shared", "SKILL.md")}`]);
    expect(reported).toEqual([]);
    expect(context.summary()).toMatchObject({
      cwd: project,
      gitRoot: null,
      projectTrusted: true,
      contextFiles: [{ path: join(project, "AGENTS.md") }],
      systemFiles: [
        { path: join(project, ".zi", "SYSTEM.md"), role: "system" },
        { path: join(home, "APPEND_SYSTEM.md"), role: "append" },
        { path: join(project, ".zi", "APPEND_SYSTEM.md"), role: "append" },
      ],
    });
    expect(context.childSections()).toContain("PROJECT AGENTS");
  });
});

describe("SystemPromptHooks", () => {
  it("keeps registration order; a throw, a non-string, or a timeout is one stderr line and left out; long text is clipped with a note", async () => {
    const lines: string[] = [];
    const hooks = new SystemPromptHooks((line) => lines.push(line), { maxHookBytes: 8, hookTimeoutMs: 1 });
    hooks.add("slow", () => new Promise<string>(() => {}));
    hooks.add("first", async () => "one");
    hooks.add("thrower", () => {
      throw new Error("boom");
    });
    hooks.add("number", () => 42 as unknown as string);
    hooks.add("nothing", () => undefined);
    hooks.add("long", () => "0123456789");
    const additions = await hooks.collect({ cwd: "/p", tools: [] });
    expect(additions).toEqual([
      { source: "first", text: "one" },
      { source: "long", text: "01234567\n\n[zi: clipped: long added more than 8 bytes]" },
    ]);
    expect(lines.sort()).toEqual([
      "zi: extension number: system prompt hook returned number, not a string; ignored",
      "zi: extension slow: system prompt hook did not answer within 1 ms; the run goes on without it",
      "zi: extension thrower: system prompt hook failed: boom",
    ]);
    expect(hooks.size).toBe(6);
  });

  it("hands each hook a frozen copy of the run's facts", async () => {
    const hooks = new SystemPromptHooks(() => {});
    const hook = jest.fn((info: { tools: readonly string[] }) => String(Object.isFrozen(info)));
    hooks.add("a", hook);
    expect(await hooks.collect({ cwd: "/p", tools: ["read"] })).toEqual([{ source: "a", text: "true" }]);
  });
});
