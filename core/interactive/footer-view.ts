import { type Component, truncateToWidth, visibleWidth } from "@mariozechner/pi-tui";
import { style } from "./ansi-style.js";

export interface FooterState {
  cwd: string;
  model: string;
  thinking: string;
  /** `contextUsage` of the state: tokens of the window in use. */
  context: { tokens: number; contextWindow: number; percent: number } | undefined;
  cost: number;
  activity: string;
  mcp: { ready: number; total: number; failed: number };
  delegations: number;
  queued: number;
  hint: string | undefined;
}

/** Two lines under the editor: where and what (cwd, model, thinking), then use and status. */
export class FooterView implements Component {
  state: FooterState;

  constructor(cwd: string) {
    this.state = { cwd, model: "no model", thinking: "off", context: undefined, cost: 0, activity: "idle", mcp: { ready: 0, total: 0, failed: 0 }, delegations: 0, queued: 0, hint: undefined };
  }

  invalidate(): void {}

  render(width: number): string[] {
    const s = this.state;
    const home = process.env.HOME;
    const cwd = home && s.cwd.startsWith(home) ? `~${s.cwd.slice(home.length)}` : s.cwd;
    const right = `${s.model} • thinking ${s.thinking}`;
    const first = pad(style.gray(cwd), style.bold(right), width);
    const parts = [
      s.context ? `context ${s.context.percent.toFixed(0)}% of ${kilo(s.context.contextWindow)}` : "context –",
      `$${s.cost.toFixed(s.cost < 1 ? 4 : 2)}`,
    ];
    if (s.mcp.total > 0) parts.push(`MCP ${s.mcp.ready}/${s.mcp.total}${s.mcp.failed ? ` (${s.mcp.failed} failed)` : ""}`);
    if (s.delegations > 0) parts.push(`${s.delegations} subagent${s.delegations === 1 ? "" : "s"} running`);
    if (s.queued > 0) parts.push(`${s.queued} queued`);
    const status = s.hint ?? (s.activity === "idle" ? "" : s.activity === "running" ? "working… (Esc interrupts)" : s.activity);
    const second = pad(style.gray(parts.join(" • ")), s.hint ? style.yellow(status) : style.cyan(status), width);
    return [first, second];
  }
}

function kilo(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}k` : String(tokens);
}

/** `left` and `right` on one line of `width` columns, the right part kept when they do not both fit. */
function pad(left: string, right: string, width: number): string {
  const room = width - visibleWidth(right) - 1;
  if (room < 8) return truncateToWidth(right, width);
  const shown = truncateToWidth(left, room);
  return `${shown}${" ".repeat(Math.max(1, width - visibleWidth(shown) - visibleWidth(right)))}${right}`;
}
