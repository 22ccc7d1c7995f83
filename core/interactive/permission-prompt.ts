import { type Component, type Focusable, matchesKey, Text, truncateToWidth } from "@mariozechner/pi-tui";
import type { PermissionDecision, PermissionRequest } from "../wire/session-types.js";
import { style } from "./ansi-style.js";
import { renderDiff } from "./tool-call-view.js";

const DIFF_LINES = 20;

/** A tool call waiting for a decision, answered with one key: y once, a always, n (or Esc) deny. */
export class PermissionPrompt implements Component, Focusable {
  focused = false;
  private readonly text = new Text("", 1, 0);

  constructor(
    readonly request: PermissionRequest,
    private readonly answer: (decision: PermissionDecision) => void,
  ) {
    const { summary, toolName, rule } = request;
    const lines = [style.yellow(style.bold(`Allow ${toolName}?`)) + " " + summary.title];
    if (summary.command) lines.push(`  ${style.cyan(summary.command)}`);
    if (summary.path) lines.push(`  ${style.cyan(summary.path)}${summary.outsideCwd ? style.red(" (outside the working directory)") : ""}`);
    if (summary.diff) {
      const diff = summary.diff.split("\n");
      lines.push(renderDiff(diff.slice(0, DIFF_LINES).join("\n")));
      if (diff.length > DIFF_LINES || summary.diffTruncated) lines.push(style.gray("  … the change goes on"));
    }
    lines.push(style.gray(`  asked by ${rule.source === "default" ? `the default "${rule.action}"` : `a ${rule.source} rule`}`));
    lines.push(`  ${style.bold("y")} allow once   ${style.bold("a")} allow always${request.alwaysRules.length ? " (this session)" : ""}   ${style.bold("n")} deny`);
    this.text.setText(lines.join("\n"));
  }

  invalidate(): void {
    this.text.invalidate();
  }

  render(width: number): string[] {
    const rule = style.yellow("─".repeat(Math.max(1, width)));
    return [truncateToWidth(rule, width), ...this.text.render(width), truncateToWidth(rule, width)];
  }

  handleInput(data: string): void {
    if (data === "y" || data === "Y") this.answer("allow_once");
    else if (data === "a" || data === "A") this.answer("allow_always");
    else if (data === "n" || data === "N" || matchesKey(data, "escape")) this.answer("deny");
  }
}
