import { Container, Spacer, Text } from "@mariozechner/pi-tui";
import type { AgentSessionEvent } from "../wire/session-types.js";
import { style } from "./ansi-style.js";
import { AssistantView } from "./assistant-view.js";
import { textOf } from "./message-text.js";
import { ToolCallView } from "./tool-call-view.js";

/**
 * The transcript on screen, built from the session's events only (what any protocol client sees):
 * user input as it is delivered, assistant replies as they stream, tool calls with their results,
 * and notices (errors, retries, compaction, extension problems).
 */
export class ChatLog extends Container {
  private assistant: AssistantView | undefined;
  private readonly tools = new Map<string, ToolCallView>();
  private readonly assistants: AssistantView[] = [];
  showThinking = false;

  /** Applies one event; returns whether anything on screen changed. */
  apply(event: AgentSessionEvent): boolean {
    const e = event as any;
    switch (event.type) {
      case "message_start":
        if (e.message?.role === "user") this.user(textOf(e.message.content));
        else if (e.message?.role === "assistant") {
          this.assistant = new AssistantView(() => this.showThinking);
          this.assistants.push(this.assistant);
          this.addChild(this.assistant);
        } else if (e.message?.role === "custom" && e.message.display) this.notice(style.magenta(textOf(e.message.content)));
        return true;
      case "message_update":
        this.assistant?.delta(e.assistantMessageEvent?.type, e.assistantMessageEvent?.contentIndex ?? 0, e.assistantMessageEvent?.delta ?? "");
        return true;
      case "message_end":
        if (e.message?.role === "assistant") this.assistant?.end(e.message);
        return true;
      case "tool_execution_start": {
        const view = new ToolCallView(e.toolCallId, e.toolName, e.args, e.call);
        this.tools.set(e.toolCallId, view);
        this.addChild(view);
        return true;
      }
      case "tool_execution_update":
        this.tools.get(e.toolCallId)?.partial(e.partialResult);
        return true;
      case "tool_execution_end":
        this.tools.get(e.toolCallId)?.end(e.result, e.isError === true);
        this.tools.delete(e.toolCallId);
        return true;
      case "permission_requested":
        this.tools.get(e.toolCallId)?.setSummary(e.summary ?? {});
        this.tools.get(e.toolCallId)?.waiting(true);
        return true;
      case "permission_resolved":
        this.tools.get(e.toolCallId)?.waiting(false);
        if (e.decision !== "deny") return true;
        this.notice(style.yellow(`denied ${e.toolName}${e.decidedBy === "client" ? "" : ` (${e.decidedBy})`}`));
        return true;
      case "agent_end":
        if (e.reason === "failed") this.notice(style.red(`the run failed: ${e.errorMessage ?? "unknown error"}`));
        if (e.reason === "interrupted") this.notice(style.yellow("interrupted"));
        return true;
      case "auto_retry_start":
        this.notice(style.yellow(`retrying (${e.attempt}/${e.maxAttempts}) in ${Math.round(e.delayMs / 1000)} s: ${e.errorMessage}`));
        return true;
      case "compaction_start":
        this.notice(style.gray(`compacting the context (${e.reason})…`));
        return true;
      case "compaction_end":
        this.notice(style.gray(e.summary ? "context compacted" : e.aborted ? "compaction stopped" : `compaction failed: ${e.errorMessage}`));
        return true;
      case "extension_error":
        this.notice(style.red(`${e.extension}: ${e.error}`));
        return true;
      default:
        return false;
    }
  }

  /** Empties the transcript on screen: another path or session is about to be replayed into it. */
  reset(): void {
    this.clear();
    this.assistant = undefined;
    this.tools.clear();
    this.assistants.length = 0;
  }

  user(text: string): void {
    this.addChild(new Spacer(1));
    this.addChild(new Text(style.userBg(` ${text} `), 1, 0));
  }

  notice(text: string): void {
    this.addChild(new Text(text, 1, 0));
  }

  /** Ctrl+T: every reply's thinking shown or folded again. */
  toggleThinking(): void {
    this.showThinking = !this.showThinking;
    for (const view of this.assistants) view.refresh();
  }
}
