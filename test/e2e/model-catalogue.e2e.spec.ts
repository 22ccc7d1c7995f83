import { afterAll, afterEach, describe, expect, it } from "@jest/globals";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ZiPaths } from "../../core/config/zi-paths.js";
import { RpcError } from "../../core/kernel/rpc-error.js";
import { ModelRegistry } from "../../core/models/model-registry.js";
import { ProviderWarmer } from "../../core/models/provider-warmer.js";
import { ZiProcess } from "../support/zi-process.js";

// The built `zi` takes pi-ai's catalogue from the modules that declare it, not from pi-ai's index
// (scripts/pi-ai-light.mjs): its answers must be the ones the index gives, here an in-process
// ModelRegistry's over the same home and environment (run from the sources, which load the index).

afterEach(() => ZiProcess.killAll());
// The in-process registry warms what it resolves, as the built zi does.
afterAll(() => ProviderWarmer.settled());

/** A ZI_HOME with a key in auth.json and a models.json provider; keys in the environment too. */
function setUp(): { home: string; env: Record<string, string> } {
  const home = mkdtempSync(join(tmpdir(), "zi-catalogue-"));
  const auth = join(home, "auth.json");
  writeFileSync(auth, JSON.stringify({ mistral: { type: "api_key", key: "mistral-key-1" } }));
  chmodSync(auth, 0o600);
  writeFileSync(
    join(home, "models.json"),
    JSON.stringify({ providers: { local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", noAuth: true, models: [{ id: "small" }] } } }),
  );
  return { home, env: { PATH: process.env.PATH ?? "", HOME: home, ZI_HOME: home, OPENAI_API_KEY: "sk-openai-1", ANTHROPIC_API_KEY: "sk-ant-1" } };
}

/** What the sources answer, pi-ai's index loaded, with `env` as the process's environment (pi-ai reads process.env). */
async function expected(env: Record<string, string>, run: (registry: ModelRegistry) => Promise<unknown>): Promise<unknown> {
  const saved = process.env;
  process.env = { ...env };
  try {
    return await run(new ModelRegistry({ paths: new ZiPaths({ env: process.env, cwd: env.HOME! }), env: process.env, warn: () => undefined }));
  } finally {
    process.env = saved;
  }
}

/** A response frame's outcome as the kernel writes it: the result, or the error's code and message. */
const outcome = (frame: any): string => JSON.stringify(frame.ok ? frame.result : { code: frame.error.code, message: frame.error.message });

describe("the built zi's model catalogue", () => {
  it("answers model.list and a model.select of every listed model as pi-ai's index does", async () => {
    const { home, env } = setUp();
    const zi = new ZiProcess({ ziHome: home, env });
    const list = await zi.call("list", "model.list");
    const wanted = await expected(env, async (registry) => {
      const models = await registry.list();
      const selects: string[] = [];
      for (const model of models) {
        try {
          selects.push(JSON.stringify({ model: (await registry.resolve(model.provider, model.id)).descriptor }));
        } catch (error) {
          if (!(error instanceof RpcError)) throw error;
          selects.push(JSON.stringify({ code: error.code, message: error.message }));
        }
      }
      return { list: JSON.stringify({ models }), selects, models };
    }) as { list: string; selects: string[]; models: { provider: string; id: string; configured: boolean }[] };
    expect(outcome(list)).toBe(wanted.list);
    // Configured and not, from each source: the cases are there to compare.
    const configured = new Set(wanted.models.filter((model) => model.configured).map((model) => model.provider));
    expect(configured).toEqual(new Set(["faux", "local", "mistral", "openai", "anthropic"]));

    zi.send(...wanted.models.map((model, index) => ({ version: 1, id: `s${index}`, method: "model.select", params: { provider: model.provider, id: model.id } })));
    await zi.waitFor((frame) => frame.type === "response" && frame.id === `s${wanted.models.length - 1}`, 60_000);
    const answers = new Map(zi.frames.filter((frame) => frame.type === "response").map((frame) => [frame.id, frame]));
    expect(wanted.models.map((_, index) => outcome(answers.get(`s${index}`)))).toEqual(wanted.selects);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
  });

  it("loads neither pi-ai's index (typebox, its providers) nor an SDK for model.list, a faux select and its prompt", async () => {
    const { home, env } = setUp();
    // Every module the child loads, recorded by a loader hook.
    const hooks = mkdtempSync(join(tmpdir(), "zi-catalogue-hooks-"));
    const loaded = join(hooks, "loaded.txt");
    writeFileSync(loaded, "");
    writeFileSync(join(hooks, "hooks.mjs"), `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, url + "\\n"); return next(url, context); }\n`);
    writeFileSync(join(hooks, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(hooks, "hooks.mjs")).href)});\n`);
    mkdirSync(join(home, "project"));
    const zi = new ZiProcess({ ziHome: home, cwd: join(home, "project"), env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(join(hooks, "register.mjs")).href}` } });
    expect((await zi.call("list", "model.list")).ok).toBe(true);
    expect((await zi.call("select", "model.select", { provider: "faux", id: "echo" })).result.model.id).toBe("echo");
    expect((await zi.call("prompt", "session.prompt", { delivery: "direct", text: "hi", completionId: "c" })).ok).toBe(true);
    expect((await zi.call("idle", "session.await_idle", { completionId: "c" })).ok).toBe(true);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
    const urls = readFileSync(loaded, "utf8").split("\n").filter(Boolean);
    expect(urls.some((url) => /\/chunks\/catalogue-[\w-]{8}\.js$/.test(url))).toBe(true);
    expect(urls.filter((url) => /\/chunks\/models-[\w-]{8}\.js$|node_modules|openai|typebox/.test(url))).toEqual([]);
  });

  it("reads pi-ai's catalogue texts at the first lookup of one of pi-ai's providers, not for a faux or models.json select", async () => {
    const { home, env } = setUp();
    // Each read of the texts' file (scripts/pi-ai-light.mjs), reported on stderr by a preloaded hook.
    const hooks = mkdtempSync(join(tmpdir(), "zi-catalogue-reads-"));
    writeFileSync(
      join(hooks, "reads.cjs"),
      `const fs = require("node:fs");\nconst read = fs.readFileSync;\nfs.readFileSync = function (path, ...rest) {\n  if (String(path).endsWith("/pi-ai-models.jsonl")) process.stderr.write("catalogue-texts-read\\n");\n  return read.call(this, path, ...rest);\n};\n`,
    );
    const zi = new ZiProcess({ ziHome: home, env: { ...env, NODE_OPTIONS: `--require=${join(hooks, "reads.cjs")}` } });
    const reads = () => zi.stderr.split("\n").filter((line) => line === "catalogue-texts-read").length;
    expect((await zi.call("faux", "model.select", { provider: "faux", id: "echo" })).ok).toBe(true);
    expect((await zi.call("local", "model.select", { provider: "local", id: "small" })).ok).toBe(true);
    expect(reads()).toBe(0);
    expect((await zi.call("builtin", "model.select", { provider: "anthropic", id: "claude-3-5-haiku-20241022" })).result.model.provider).toBe("anthropic");
    expect((await zi.call("list", "model.list")).ok).toBe(true);
    expect(await zi.close()).toEqual({ code: 0, signal: null });
    expect(reads()).toBe(1);
  });
});
