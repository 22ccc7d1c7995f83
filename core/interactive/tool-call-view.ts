import { Container, Text } from "@mariozechner/pi-tui";
import { style } from "./ansi-style.js";
import { resultText, tailLines } from "./message-text.js";

const RESULT_LINES = 12;
const ARGS_CHARS = 200;

/**
 * One tool call as it runs: its title (the tool and what it acts on), its arguments, its streamed
 * output and then its result; an edit's change as a diff (the permission summary's, or the result's).
 */
export class ToolCallView extends Container {
  private readonly header = new Text("", 1, 0);
  private readonly body = new Text("", 1, 0);
  private status: "running" | "done" | "error" | "waiting" = "running";
  private output = "";
  private diff: string | undefined;
  private title: string | undefined;

  constructor(
    readonly toolCallId: string,
    private readonly toolName: string,
    private readonly args: unknown,
    /** The tool's own description of the call (tool_execution_start's `call`): kind and title. */
    private readonly call?: { kind?: string; title?: string },
  ) {
    super();
    this.title = call?.title;
    this.addChild(this.header);
    this.addChild(this.body);
    this.update();
  }

  /** A permission request's summary: a better title and the diff the call would apply. */
  setSummary(summary: { title?: string; diff?: string }): void {
    if (summary.diff) this.diff = summary.diff;
    this.title = summary.title ?? this.title;
    this.update();
  }

  waiting(on: boolean): void {
    if (this.status === "running" || this.status === "waiting") this.status = on ? "waiting" : "running";
    this.update();
  }

  partial(result: unknown): void {
    this.output = resultText(result);
    this.update();
  }

  end(result: unknown, isError: boolean): void {
    this.status = isError ? "error" : "done";
    this.output = resultText(result);
    const details = (result as { details?: { diff?: unknown } } | undefined)?.details;
    if (typeof details?.diff === "string") this.diff = details.diff;
    this.update();
  }

  private update(): void {
    const mark = this.status === "done" ? style.green("✓") : this.status === "error" ? style.red("✗") : this.status === "waiting" ? style.yellow("?") : style.cyan("…");
    const subject = this.title ? style.cyan(oneLine(this.title)) : describeArgs(this.args);
    const kind = this.call?.kind && this.call.kind !== "other" ? style.gray(` ${this.call.kind}`) : "";
    this.header.setText(`${mark} ${style.bold(this.toolName)}${kind} ${subject}`);
    const parts: string[] = [];
    if (this.diff) parts.push(renderDiff(this.diff));
    if (this.output) {
      const { lines, hidden } = tailLines(this.output, RESULT_LINES);
      if (hidden > 0) parts.push(style.gray(`… ${hidden} more lines above`));
      parts.push(lines.map((line) => (this.status === "error" ? style.red(line) : style.gray(line))).join("\n"));
    }
    this.body.setText(parts.join("\n"));
  }
}

/** What a call acts on, in one line: the command, the path, or the arguments clipped. */
function describeArgs(args: unknown): string {
  if (args && typeof args === "object") {
    const record = args as Record<string, unknown>;
    for (const key of ["command", "path", "file_path", "pattern", "url", "query"]) {
      if (typeof record[key] === "string") return style.cyan(oneLine(record[key] as string));
    }
  }
  const json = JSON.stringify(args ?? {});
  return style.gray(oneLine(json));
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, " ⏎ ");
  return line.length > ARGS_CHARS ? `${line.slice(0, ARGS_CHARS - 1)}…` : line;
}

/** A unified diff with added lines green, removed red and hunk headers dim. */
export function renderDiff(diff: string): string {
  return diff
    .replace(/\s+$/, "")
    .split("\n")
    .map((line) => (line.startsWith("+") && !line.startsWith("+++") ? style.green(line) : line.startsWith("-") && !line.startsWith("---") ? style.red(line) : line.startsWith("@@") ? style.cyan(line) : style.gray(line)))
    .join("\n");
}
