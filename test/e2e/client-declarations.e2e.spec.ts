import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * A dependant's project compiling against the built `zi/client` declarations (package.json `exports`,
 * dist/client/*.d.ts) with `skipLibCheck: false` and strict options: every declaration the client's
 * types reach is checked, so they must be Zi's own, never the extension API's pi-ai and provider or MCP
 * SDK types (whose declarations do not check under a dependant's options).
 */
const REPOSITORY = resolve(".");
const CONSUMER = `
import { ZiClient, type ParamsOf, type ResultOf, type ZiMethodName } from "zi/client";

// The method map is the served families', built-in and plugins' alike (not \`any\`, not empty).
const methods: ZiMethodName[] = ["session.prompt", "plan.get", "permission.set_policy", "mcp.list"];
export async function use(client: ZiClient): Promise<number> {
  const plan: ResultOf<"plan.get"> = await client.request("plan.get");
  const listing: ResultOf<"mcp.list"> = await client.request("mcp.list");
  const prompt: ParamsOf<"session.prompt"> = { delivery: "direct", text: "hi" };
  // @ts-expect-error an unknown method is refused
  await client.request("no.such_method");
  return methods.length + plan.workPlan.steps.length + listing.servers.length + prompt.text.length;
}
`;

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "zi-client-consumer-"));
  // Installed as a dependant has it: the package (its dependencies resolve beside its real path) and @types/node.
  mkdirSync(join(root, "node_modules"));
  symlinkSync(REPOSITORY, join(root, "node_modules/zi"));
  symlinkSync(join(REPOSITORY, "node_modules/@types"), join(root, "node_modules/@types"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(join(root, "consumer.ts"), CONSUMER);
  const compilerOptions = {
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ["node"],
    noEmit: true,
  };
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("zi/client declarations, for a dependant with skipLibCheck false", () => {
  it("compile with no errors and reach no third-party SDK declarations", () => {
    const tsc = join(REPOSITORY, "node_modules/typescript/bin/tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false", "--listFilesOnly"], { cwd: root, encoding: "utf8" });
    expect(run.status).toBe(0);
    const reached = run.stdout.split("\n").filter(Boolean);
    expect(reached.some((file) => file.endsWith("dist/client/client-api.d.ts"))).toBe(true);
    expect(reached.filter((file) => /node_modules\/(@mariozechner|@anthropic-ai|openai|@google|@mistralai|@aws-sdk|@modelcontextprotocol)\//.test(file))).toEqual([]);
    expect(reached.filter((file) => /dist\/core\/(extensions|session|journal|models|config)\//.test(file))).toEqual([]);

    const check = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: root, encoding: "utf8" });
    expect({ status: check.status, diagnostics: check.stdout.split("\n").filter(Boolean) }).toEqual({ status: 0, diagnostics: [] });
  });
});
