import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProjectTrusted, untrustedHint } from "../../../core/config/project-trust.js";

describe("isProjectTrusted", () => {
  let root: string;
  let project: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "zi-trust-"));
    project = join(root, "repo");
    mkdirSync(join(project, "sub"), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("trusts with --trust-project whatever the list says", async () => {
    expect(await isProjectTrusted({ projectRoot: project, trustFlag: true, trustedProjects: undefined })).toBe(true);
  });

  it("trusts a project listed by absolute path, also through a symlink on either side", async () => {
    symlinkSync(project, join(root, "link"));
    expect(await isProjectTrusted({ projectRoot: project, trustFlag: false, trustedProjects: ["/elsewhere", project] })).toBe(true);
    expect(await isProjectTrusted({ projectRoot: join(root, "link"), trustFlag: false, trustedProjects: [project] })).toBe(true);
    expect(await isProjectTrusted({ projectRoot: project, trustFlag: false, trustedProjects: [`${join(root, "link")}/`] })).toBe(true);
  });

  it("does not trust a subdirectory, a parent, a relative entry or a malformed list", async () => {
    const no = (projectRoot: string, trustedProjects: unknown) => isProjectTrusted({ projectRoot, trustFlag: false, trustedProjects });
    expect(await no(join(project, "sub"), [project])).toBe(false);
    expect(await no(project, [root])).toBe(false);
    expect(await no(project, ["repo", "./repo"])).toBe(false);
    expect(await no(project, project)).toBe(false);
    expect(await no(project, [{ path: project }, 42, null])).toBe(false);
    expect(await no(project, undefined)).toBe(false);
  });

  it("tells how to trust the project", () => {
    expect(untrustedHint("/p")).toBe('the project /p is not trusted; run with --trust-project, or add it to "trustedProjects" in ZI_HOME/settings.json');
  });
});
