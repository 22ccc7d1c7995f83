// 11. Sandbox: the same `bash` call (`true`) through Zi's BashTool, in the bubblewrap sandbox
// (workspace-write, network off) against unsandboxed, alternated rep by rep in this process as a session
// calls the tool; the target is the median difference (issue 24: at most 15 ms). A tool that runs in
// process (`read`) gets the sandbox in its context and must cost nothing more for it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { median } from "./stats.mjs";

export async function measureSandbox(report, { root, reps }) {
  try {
    execFileSync("bwrap", ["--ro-bind", "/", "/", "--unshare-user", "--", "true"], { stdio: "ignore" });
  } catch (error) {
    return report.skip("sandbox", `bubblewrap cannot start here (${error.message.split("\n")[0]}): nothing to compare`);
  }
  const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
  const [{ BashTool }, { ReadTool }, { SandboxControl }] = await Promise.all([
    load("plugins/coding-tools/bash.tool.js"),
    load("plugins/coding-tools/read.tool.js"),
    load("core/sandbox/sandbox-control.js"),
  ]);
  const cwd = mkdtempSync(join(tmpdir(), "zi-bench-sandbox-"));
  writeFileSync(join(cwd, "file.txt"), "x\n".repeat(100));
  const sandbox = new SandboxControl({ mode: "workspace-write", network: false, writableRoots: [] }, []);
  await sandbox.checkSupport();
  const bash = new BashTool(join(cwd, "logs"));
  const read = new ReadTool();
  const context = (withSandbox) => ({ signal: new AbortController().signal, cwd, onUpdate() {}, ...(withSandbox ? { sandbox } : {}) });
  const time = async (tool, args, withSandbox) => {
    const start = performance.now();
    const result = await tool.execute(args, context(withSandbox));
    if (result.isError) throw new Error(`sandbox bench: ${tool.name} failed: ${JSON.stringify(result.content)}`);
    return performance.now() - start;
  };
  const samples = { bash: [], bashSandboxed: [], read: [], readSandboxed: [] };
  for (let rep = -2; rep < reps; rep++) {
    const one = [await time(bash, { command: "true" }, false), await time(bash, { command: "true" }, true), await time(read, { path: "file.txt" }, false), await time(read, { path: "file.txt" }, true)];
    if (rep >= 0) [samples.bash, samples.bashSandboxed, samples.read, samples.readSandboxed].forEach((list, index) => list.push(one[index]));
  }
  report.delta({ name: "sandbox: bash call overhead (workspace-write vs off)", unit: "ms", zi: median(samples.bashSandboxed), baseline: median(samples.bash), limit: 15, samples });
  report.delta({ name: "sandbox: in-process tool (read) with the sandbox in its context", unit: "ms", zi: median(samples.readSandboxed), baseline: median(samples.read), limit: 1, samples: { read: samples.read, readSandboxed: samples.readSandboxed } });
}
