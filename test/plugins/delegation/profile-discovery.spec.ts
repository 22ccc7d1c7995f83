import { describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverProfiles } from "../../../plugins/delegation/profile-discovery.js";
import { parseProfile, ProfileError } from "../../../plugins/delegation/profile-parser.js";

const profile = (front: string, body = "You help.") => `---\n${front}\n---\n${body}\n`;

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "zi-agents-"));
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("profile files", () => {
  it("parses every field of the front matter with the yaml library, and the body as the system prompt", () => {
    const parsed = parseProfile(
      profile(
        'name: reviewer\ndescription: >\n  Reviews a diff\n  and reports.\ntools: [read, grep]\nmodel: faux/echo\nthinking: low\nmaxTurns: 3\nmaxRuntimeSeconds: 1.5',
        "# Reviewer\n\nBe strict.",
      ),
      "/x/reviewer.md",
      "global",
    );
    expect(parsed).toEqual({
      name: "reviewer",
      description: "Reviews a diff and reports.",
      tools: ["read", "grep"],
      model: { provider: "faux", id: "echo" },
      thinking: "low",
      maxTurns: 3,
      maxRuntimeSeconds: 1.5,
      systemPrompt: "# Reviewer\n\nBe strict.",
      origin: "global",
      source: "/x/reviewer.md",
    });
    expect(parseProfile(profile("name: a\ndescription: d\ntools: read, ls"), "f", "project").tools).toEqual(["read", "ls"]);
  });

  it.each([
    ["no front matter", "just text", "front matter"],
    ["invalid YAML", profile("name: [unclosed\ndescription: d"), "front matter"],
    ["a list instead of a mapping", profile("- a\n- b"), "front matter"],
    ["no name", profile("description: d"), "name"],
    ["a bad name", profile("name: has space\ndescription: d"), "name"],
    ["no description", profile("name: a"), "description"],
    ["an unknown field", profile("name: a\ndescription: d\ncolour: red"), "colour"],
    ["tools not a list", profile("name: a\ndescription: d\ntools: {a: 1}"), "tools"],
    ["a model without provider", profile("name: a\ndescription: d\nmodel: echo"), "model"],
    ["an unknown thinking level", profile("name: a\ndescription: d\nthinking: max"), "thinking"],
    ["maxTurns 0", profile("name: a\ndescription: d\nmaxTurns: 0"), "maxTurns"],
    ["maxTurns not an integer", profile("name: a\ndescription: d\nmaxTurns: 1.5"), "maxTurns"],
    ["maxRuntimeSeconds as text", profile("name: a\ndescription: d\nmaxRuntimeSeconds: soon"), "maxRuntimeSeconds"],
    ["an empty body", profile("name: a\ndescription: d", ""), "body"],
  ])("rejects %s, naming the field", (_label, text, field) => {
    let error: unknown;
    try {
      parseProfile(text, "f.md", "global");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProfileError);
    expect((error as ProfileError).field).toBe(field);
    expect((error as Error).message).toContain(`field "${field}"`);
  });
});

describe("profile discovery", () => {
  it("ships explore (read-only) and worker (the coding tools)", async () => {
    const profiles = await discoverProfiles([], async () => undefined);
    expect([...profiles.keys()]).toEqual(["explore", "worker"]);
    expect(profiles.get("explore")!.tools).toEqual(["read", "ls", "grep", "find"]);
    expect(profiles.get("worker")!.tools).toBeUndefined();
    expect(profiles.get("explore")!.origin).toBe("builtin");
  });

  it("ranks built-in < ZI_HOME/agents < .zi/agents by name, and skips a broken file with one report naming file and field", async () => {
    const global = dirWith({
      "explore.md": profile("name: explore\ndescription: global explore"),
      "helper.md": profile("name: helper\ndescription: global helper"),
      "broken.md": profile("name: broken\ndescription: d\nmaxTurns: -1"),
      "notes.txt": "not a profile",
    });
    const project = dirWith({ "explore.md": profile("name: explore\ndescription: project explore\nmodel: faux/echo") });
    const reports: [string, string][] = [];
    const profiles = await discoverProfiles(
      [
        { dir: global, origin: "global" },
        { dir: project, origin: "project" },
        { dir: join(project, "missing"), origin: "project" },
      ],
      async (file, error) => void reports.push([file, error]),
    );
    expect([...profiles.keys()].sort()).toEqual(["explore", "helper", "worker"]);
    expect(profiles.get("explore")).toMatchObject({ description: "project explore", origin: "project", source: join(project, "explore.md") });
    expect(profiles.get("helper")).toMatchObject({ description: "global helper", origin: "global" });
    expect(profiles.get("worker")!.origin).toBe("builtin");
    expect(reports).toEqual([[join(global, "broken.md"), expect.stringContaining('field "maxTurns"')]]);
  });

  it("reports a second file defining the same name in one directory", async () => {
    const dir = dirWith({ "a.md": profile("name: twin\ndescription: first"), "b.md": profile("name: twin\ndescription: second") });
    const reports: string[] = [];
    const profiles = await discoverProfiles([{ dir, origin: "global" }], async (file, error) => void reports.push(`${file}: ${error}`));
    expect(profiles.get("twin")!.description).toBe("first");
    expect(reports).toEqual([expect.stringMatching(/b\.md: field "name": "twin" is already defined by .*a\.md/)]);
  });
});
