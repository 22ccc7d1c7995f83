import { describe, expect, it } from "@jest/globals";
import type { LoadedContext } from "../../../core/context/context-types.js";
import { DEFAULT_IDENTITY, SystemPromptBuilder, type PromptTool } from "../../../core/context/system-prompt-builder.js";
import { createCodingTools } from "../../../plugins/coding-tools/coding-tools.factory.js";
import { UpdatePlanTool } from "../../../plugins/work-plan/update-plan.tool.js";

const builder = new SystemPromptBuilder();
const tool = (name: string, description = `${name} things. More detail.`) => ({ name, description });
/** The real built-in tools, whose declarations the guidelines read (delegate's declaration is its own file's; stood in here). */
const REAL = new Map<string, PromptTool>(
  [...createCodingTools({ cwd: "/tmp", logDir: "/tmp/zi-prompt-logs" }), new UpdatePlanTool(async () => ({}))].map((one) => [one.name, one]),
);
REAL.set("delegate", { name: "delegate", description: "Delegate.", declaration: { effect: "other", guideline: "Hand self-contained subtasks to specialised agents with delegate when that keeps your own context focused." } });
const real = (...names: string[]) => names.map((name) => REAL.get(name)!);
const CODING = real("read", "write", "edit", "bash", "ls", "grep", "find", "update_plan");

function context(overrides: Partial<LoadedContext> = {}): LoadedContext {
  return {
    environment: { cwd: "/work/repo/pkg", date: "2026-12-01", platform: "linux (x64)", shell: "/bin/bash", gitRoot: "/work/repo" },
    contextFiles: [],
    system: undefined,
    appends: [],
    skills: [],
    shadowedSkills: [],
    omittedSkills: [],
    problems: [],
    projectTrusted: false,
    ...overrides,
  };
}

describe("SystemPromptBuilder", () => {
  it("orders the sections: identity, tools, guidelines, project context, skills, environment, appends, additions", () => {
    const prompt = builder.build(
      context({
        contextFiles: [{ path: "/home/AGENTS.md", content: "GLOBAL" }, { path: "/work/repo/AGENTS.md", content: "ROOT" }],
        skills: [{ name: "deploy", description: "Deploy it", path: "/home/skills/deploy/SKILL.md" }],
        appends: [
          { path: "/home/APPEND_SYSTEM.md", origin: "global", content: "APPEND-GLOBAL\n", clipped: false },
          { path: "/work/repo/pkg/.zi/APPEND_SYSTEM.md", origin: "project", content: "APPEND-PROJECT", clipped: false },
        ],
      }),
      CODING,
      [{ source: "ext", text: "ADDITION" }],
    );
    const marks = [DEFAULT_IDENTITY, "# Tools", "# Guidelines", "# Project context", "GLOBAL", "ROOT", "# Skills", "# Environment", "APPEND-GLOBAL", "APPEND-PROJECT", "ADDITION"];
    const positions = marks.map((mark) => prompt.indexOf(mark));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt.endsWith("ADDITION")).toBe(true);
  });

  it("SYSTEM.md replaces the identity and the guidelines, not the tools or the context", () => {
    const prompt = builder.build(context({ system: { path: "/p/.zi/SYSTEM.md", origin: "project", content: "You are a reviewer.\n", clipped: false } }), CODING);
    expect(prompt.startsWith("You are a reviewer.\n\n# Tools")).toBe(true);
    expect(prompt).not.toContain(DEFAULT_IDENTITY);
    expect(prompt).not.toContain("# Guidelines");
    expect(prompt).toContain("# Environment");
  });

  it("lists each tool with the first sentence of its description, cut to one bounded line", () => {
    expect(builder.toolList([tool("read", "Read a file. Returns at most 2000 lines."), tool("x", "\n\n  Multi\nline")])).toBe("# Tools\n\n- read: Read a file.\n- x: Multi");
    expect(builder.summary("a".repeat(500))).toHaveLength(240);
    expect(builder.summary("Version 1.2 of e.g. this")).toBe("Version 1.2 of e.g.");
    expect(builder.toolList([])).toBeUndefined();
  });

  it("gives guidelines only about tools that are present, from their declarations", () => {
    const all = builder.guidelines(CODING);
    expect(all).toContain("Prefer read, ls, grep, find over bash for reading and exploring files");
    expect(all).toContain("Read a file before you change it.");
    expect(all).toContain("Use edit for changes");
    expect(all).toContain("Use write only for new files or complete rewrites");
    expect(all).toContain("update_plan");
    expect(all).not.toContain("delegate");
    const bashOnly = builder.guidelines(real("bash"));
    expect(bashOnly).toContain("Use bash to explore the project (ls, rg, find).");
    expect(bashOnly).not.toMatch(/edit|write|update_plan|grep, find/);
    expect(builder.guidelines(real("read", "write"))).toContain("Read a file before you change it.");
    expect(builder.guidelines(real("delegate"))).toContain("with delegate");
    // A tool that declares nothing adds no advice and counts as neither reader nor runner.
    expect(builder.guidelines([tool("mystery")])).not.toMatch(/Prefer|Read a file/);
  });

  it("shows each context file under its path, with a visible note when it was clipped or omitted", () => {
    const section = builder.projectContext([
      { path: "/a/AGENTS.md", content: "A" },
      { path: "/b/AGENTS.md", content: "B", clipped: "file" },
      { path: "/c/AGENTS.md", content: "C", clipped: "total" },
      { path: "/d/AGENTS.md", content: "", clipped: "omitted" },
    ])!;
    expect(section).toContain("## /a/AGENTS.md\n\nA\n\n## /b/AGENTS.md\n\nB\n\n[zi: clipped: this file is longer than 32768 bytes; read /b/AGENTS.md for the rest]");
    expect(section).toContain("## /c/AGENTS.md\n\nC\n\n[zi: clipped: the context files exceed their 65536-byte budget; read /c/AGENTS.md for the rest]");
    expect(section).toContain("## /d/AGENTS.md\n\n[zi: omitted: the context files exceed their 65536-byte budget; read /d/AGENTS.md]");
    expect(builder.projectContext([])).toBeUndefined();
  });

  it("lists skills as escaped XML with their SKILL.md path, only when the model can read them", () => {
    const skills = [{ name: "a-b", description: 'Use <x> & "y"', path: "/s/a-b/SKILL.md" }];
    const section = builder.skills(skills, ["late"], real("read"))!;
    expect(section).toContain("<name>a-b</name>\n    <description>Use &lt;x&gt; &amp; &quot;y&quot;</description>\n    <location>/s/a-b/SKILL.md</location>");
    expect(section).toContain("[zi: 1 more skill(s) not listed (at most 100 skills and 16 KiB are listed): late]");
    expect(builder.skills(skills, [], real("bash"))).toBeDefined();
    expect(builder.skills(skills, [], real("edit"))).toBeUndefined();
    expect(builder.skills([], [], real("read"))).toBeUndefined();
  });

  it("bounds the skills block in bytes: 20,000 skills list what fits 16 KiB, and the note counts the rest with a bounded list of names", () => {
    const skills = Array.from({ length: 100 }, (_, i) => ({ name: `skill-${i}`, description: "d".repeat(1000), path: `/s/skill-${i}/SKILL.md` }));
    const omitted = Array.from({ length: 19_900 }, (_, i) => `later-${i}`);
    const section = builder.skills(skills, omitted, real("read"))!;
    const listed = section.split("<skill>").length - 1;
    expect(listed).toBeGreaterThan(5);
    expect(listed).toBeLessThan(100);
    expect(Buffer.byteLength(section)).toBeLessThan(16 * 1024 + 2 * 1024);
    const note = /\[zi: (\d+) more skill\(s\) not listed \(at most 100 skills and 16 KiB are listed\): skill-\d+, .*, and (\d+) more\]$/.exec(section);
    expect(Number(note?.[1])).toBe(20_000 - listed);
    expect(Number(note?.[2])).toBeGreaterThan(19_000);
  });

  it("states the environment: cwd, date, platform, shell, git root", () => {
    expect(builder.environment(context().environment)).toBe(
      "# Environment\n\n- Working directory: /work/repo/pkg\n- Today's date: 2026-12-01\n- Platform: linux (x64)\n- Shell: /bin/bash\n- Git repository: yes, root /work/repo",
    );
    expect(builder.environment({ ...context().environment, gitRoot: null, shell: undefined })).toContain("- Shell: unknown\n- Git repository: no");
  });

  it("marks a clipped SYSTEM.md or APPEND_SYSTEM.md", () => {
    expect(builder.fileText({ path: "/h/SYSTEM.md", origin: "global", content: "S", clipped: true })).toBe("S\n\n[zi: clipped: /h/SYSTEM.md is longer than 32768 bytes]");
  });

  it("gives a delegated child the project context and the environment only", () => {
    const child = builder.childSections(context({ contextFiles: [{ path: "/a/AGENTS.md", content: "A" }], skills: [{ name: "s", description: "d", path: "/p" }] }));
    expect(child.startsWith("# Project context")).toBe(true);
    expect(child).toContain("# Environment");
    expect(child).not.toContain("# Skills");
  });
});
