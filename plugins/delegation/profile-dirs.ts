import { AsyncFs } from "../../core/config/async-fs.js";
import { join } from "node:path";
import type { PluginServices } from "../../core/extensions/plugin-services.js";
import type { ProfileDir } from "./profile-discovery.js";

/**
 * Where profiles are read from, by rising priority: `ZI_HOME/agents`, then the project's `.zi/agents`
 * only when project content may load (the same decision as for `.zi/extensions`). The profiles of an
 * untrusted project are left out like its extensions: one line and one event name them.
 */
export async function profileDirs(ziHome: string, services: Pick<PluginServices, "project" | "report">): Promise<ProfileDir[]> {
  const global: ProfileDir = { dir: join(ziHome, "agents"), origin: "global" };
  const project = join(services.project.dir, "agents");
  if (services.project.trusted) return [global, { dir: project, origin: "project" }];
  const skipped = (await AsyncFs.readdir(project).catch(() => [] as string[])).filter((name) => name.endsWith(".md") && !name.startsWith(".")).sort();
  if (skipped.length > 0) {
    const error = `skipped ${skipped.length} project delegation profile(s) (${skipped.join(", ")}): ${services.project.untrustedReason}`;
    await services.report(project, error, "not loaded");
  }
  return [global];
}
