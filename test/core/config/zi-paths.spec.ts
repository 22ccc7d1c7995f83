import { describe, expect, it } from "@jest/globals";
import { join } from "node:path";
import { ZiPaths } from "../../../core/config/zi-paths.js";

describe("ZiPaths", () => {
  it("puts user state under ZI_HOME and project state under <cwd>/.zi", () => {
    const paths = new ZiPaths({ env: { ZI_HOME: "/tmp/zi-home" }, cwd: "/work/project" });
    expect(paths.ziHome).toBe("/tmp/zi-home");
    expect(paths.sessionsDir).toBe("/tmp/zi-home/sessions");
    expect(paths.globalSettingsFile).toBe("/tmp/zi-home/settings.json");
    expect(paths.authFile).toBe("/tmp/zi-home/auth.json");
    expect(paths.modelsFile).toBe("/tmp/zi-home/models.json");
    expect(paths.globalExtensionsDir).toBe("/tmp/zi-home/extensions");
    expect(paths.projectSettingsFile).toBe("/work/project/.zi/settings.json");
    expect(paths.projectExtensionsDir).toBe("/work/project/.zi/extensions");
  });

  it("defaults ZI_HOME to ~/.zi", () => {
    expect(new ZiPaths({ env: { HOME: "/home/someone" }, cwd: "/x" }).ziHome).toBe(join("/home/someone", ".zi"));
    expect(new ZiPaths({ env: { HOME: "/home/someone", ZI_HOME: "" }, cwd: "/x" }).ziHome).toBe("/home/someone/.zi");
  });

  it("resolves a relative ZI_HOME against the working directory", () => {
    expect(new ZiPaths({ env: { ZI_HOME: "state" }, cwd: "/work/project" }).ziHome).toBe("/work/project/state");
  });
});
