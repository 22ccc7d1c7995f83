// An esbuild plugin for `npm run build` (scripts/bundle.mjs): the ACP SDK's generated zod schemas
// (`zod.gen.js`, 252 schemas, and the guards built on them) are built when first used instead of
// when the module loads. Built at load they were ~30 ms of an ACP start's CPU before `initialize`
// could be answered, and an agent only ever parses a few of them (the requests it receives). Each
// schema is the same zod expression as before, evaluated once, on its first use: what it accepts,
// rejects and reports is unchanged (test/acp/lazy-zod-schemas.spec.ts compares every schema's JSON
// Schema and parse results with the SDK's own module).
import { readFile } from "node:fs/promises";

/** The generated files: top-level `[export ]const zName = <zod expression>;` statements. */
const GENERATED = /[\\/]@agentclientprotocol[\\/]sdk[\\/]dist[\\/].*[\\/](zod|guards)\.gen\.js$/;
// A new top-level statement or comment starts at column 0 with one of these; anything else at
// column 0 (`]);`, `}), "type", [...]);`) continues the statement before it.
const STATEMENT_START = /^(\/\*\*|\/\/|export |const |function |let |class |import )/;
const SCHEMA = /^(export )?const (z[A-Z]\w*) = /;

// Prepended to a transformed file. A schema other modules import is a proxy to its lazily built
// zod schema, so `.parse`, `.safeParse`, `.and(...)`, `instanceof` work on it as on the schema.
const RUNTIME = `
const $lazy = (build) => { let schema; return () => (schema ??= build()); };
const $lazySchema = (get) => new Proxy(Object.create(null), {
  get: (_, key) => { const schema = get(); const value = Reflect.get(schema, key, schema); return typeof value === "function" ? value.bind(schema) : value; },
  has: (_, key) => key in get(),
  getPrototypeOf: () => Object.getPrototypeOf(get()),
  ownKeys: () => Reflect.ownKeys(get()),
  getOwnPropertyDescriptor: (_, key) => { const descriptor = Reflect.getOwnPropertyDescriptor(get(), key); return descriptor && { ...descriptor, configurable: true }; },
});
`;

/** The source with every top-level schema built on first use; undefined when the file has none. */
export function lazyZodSchemas(source) {
  const lines = source.split("\n");
  const statements = [];
  let current;
  for (const line of lines) {
    if (current === undefined || STATEMENT_START.test(line)) statements.push((current = { lines: [] }));
    current.lines.push(line);
  }
  const names = new Set();
  for (const statement of statements) {
    const match = SCHEMA.exec(statement.lines[0]);
    if (match) {
      statement.name = match[2];
      statement.exported = match[1] !== undefined;
      names.add(match[2]);
    }
  }
  if (names.size === 0) return undefined;
  // A reference to another schema of the file (not a property like `validate.zX`) becomes its getter.
  const reference = new RegExp(`(?<![\\w$.])(${[...names].join("|")})\\b`, "g");
  let sawImports = false;
  const out = [];
  for (const statement of statements) {
    const text = statement.lines.join("\n");
    if (statement.name === undefined) {
      // The runtime goes after the imports (hoisted anyway) and before the first other statement.
      if (!sawImports && !text.startsWith("import ") && !text.startsWith("//")) {
        out.push(RUNTIME);
        sawImports = true;
      }
      // Other code of the file (the guards' exported objects) reads its schemas through the getters too.
      out.push(text.startsWith("import ") ? text : text.replace(reference, "$$$1()"));
      continue;
    }
    if (!sawImports) {
      out.push(RUNTIME);
      sawImports = true;
    }
    const body = text.replace(SCHEMA, "").trimEnd();
    if (!body.endsWith(";")) throw new Error(`lazy-zod-schemas: ${statement.name} does not end with ';'`);
    const expression = body.slice(0, -1).replace(reference, "$$$1()");
    out.push(`const $${statement.name} = $lazy(() => ${expression});`);
    if (statement.exported) out.push(`export const ${statement.name} = /* @__PURE__ */ $lazySchema($${statement.name});`);
  }
  return out.join("\n");
}

export const lazyZodSchemasPlugin = {
  name: "lazy-zod-schemas",
  setup(build) {
    let converted = 0;
    build.onLoad({ filter: GENERATED }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      const contents = lazyZodSchemas(source);
      if (contents === undefined) return undefined;
      converted++;
      return { contents, loader: "js" };
    });
    // The SDK moved its generated schemas (or the bundle stopped loading them): fail, not ship them eager.
    build.onEnd(() => {
      if (converted === 0) throw new Error("lazy-zod-schemas: no generated ACP schema file was converted; update scripts/lazy-zod-schemas.mjs");
    });
  },
};
