import { CombinedAutocompleteProvider, Container, SelectList, type Component, type SelectItem, type TUI } from "@mariozechner/pi-tui";
import type { AgentSessionEvent, PermissionDecision, PermissionRequest } from "../wire/session-types.js";
import { editorTheme, selectListTheme, style } from "./ansi-style.js";
import { ChatLog } from "./chat-log.js";
import { FileMentionProvider } from "./file-mention-provider.js";
import { FooterView } from "./footer-view.js";
import { PermissionPrompt } from "./permission-prompt.js";
import { PromptEditor } from "./prompt-editor.js";
import type { SessionClient } from "./session-client.js";
import { SlashCommands, type SessionEnd } from "./slash-commands.js";
import { replayTranscript } from "./transcript-replay.js";

const NO_MODEL = "no model";

/** How long a second Ctrl+C on an empty editor has to come to exit. */
const DOUBLE_PRESS_MS = 1500;

/** An Enter (or, with `followUp`, an Alt+Enter) of text the session has not taken yet. */
export interface Unsent {
  text: string;
  followUp: boolean;
}

/** Type-ahead a session ended before sending: the editor's text and what was sent from it. */
export interface TypeAhead {
  draft: string;
  unsent: Unsent[];
}

/**
 * One session on screen: the transcript, the editor (or a permission prompt in its place) and the
 * footer, driven by the session's events and acting only through protocol methods. Resolves `ended`
 * when the person leaves (`/exit`, Ctrl+C twice) or asks for another session (`/new`, `/resume`).
 */
export class InteractiveSession {
  readonly ended: Promise<SessionEnd>;
  readonly chat = new ChatLog();
  readonly footer: FooterView;
  readonly editor: PromptEditor;
  private readonly bottom = new Container();
  private readonly prompts: PermissionPrompt[] = [];
  private readonly slash: SlashCommands;
  private finish!: (end: SessionEnd) => void;
  private activity = "idle";
  private lastCtrlC = 0;
  private hintTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** The transcript redrawn after a leaf move or a session switch, one after another. */
  private reloading: Promise<void> = Promise.resolve();
  /**
   * What is sent before start() has the session ready (its state applied, --model chosen, the first
   * prompt sent), kept in the order typed; undefined once start() has sent it all.
   */
  private backlog: Unsent[] | undefined = [];
  private over = false;

  constructor(
    readonly tui: TUI,
    readonly client: SessionClient,
    readonly cwd: string,
  ) {
    this.ended = new Promise((resolve) => (this.finish = resolve));
    this.footer = new FooterView(cwd);
    this.editor = new PromptEditor(tui, editorTheme, { paddingX: 1 });
    this.slash = new SlashCommands(this);
    this.editor.onSubmit = (text) => this.accept({ text, followUp: false });
    this.editor.keys = {
      escape: () => this.interrupt(),
      interruptKey: () => this.ctrlC(),
      followUp: (text) => this.accept({ text, followUp: true }),
      endOfInput: () => this.end({ type: "exit" }),
      toggleThinking: () => (this.chat.toggleThinking(), this.tui.requestRender()),
    };
    this.bottom.addChild(this.editor);
  }

  /** The components this session adds to the screen, top to bottom. */
  get components(): Component[] {
    return [this.chat, this.bottom, this.footer];
  }

  /** The type-ahead of the session before, ended by one of its own inputs: in the editor, and sent once this one is ready. */
  carry(typeAhead: TypeAhead): void {
    this.editor.setText(typeAhead.draft);
    this.backlog?.unshift(...typeAhead.unsent);
  }

  /** Called once the session is ready for input (the model chosen); the editor may have taken keys before. */
  async start(firstPrompt: string | undefined): Promise<void> {
    this.unsubscribe = this.client.onEvent((event) => this.onEvent(event));
    const { state } = await this.client.ready;
    this.applyState(state);
    this.tui.requestRender();
    // The extensions' commands too: a typed-ahead `/name` is run, not taken for an unknown command.
    const commands = await this.slash.completions();
    this.editor.setAutocompleteProvider(new FileMentionProvider(new CombinedAutocompleteProvider(commands, this.cwd), this.cwd));
    await this.refreshState();
    if (this.footer.state.model === NO_MODEL) await this.slash.noModelNotice();
    await this.refreshUsage();
    // The command line's prompt was typed first, then what the person typed while Zi started.
    if (firstPrompt !== undefined && firstPrompt.trim() !== "") await this.submit(firstPrompt);
    while (this.backlog && this.backlog.length > 0 && !this.over) await this.deliver(this.backlog.shift()!);
    if (!this.over) this.backlog = undefined;
  }

  /** What this session did not send because it ended first (a typed-ahead `/new`), and the editor's text. */
  typeAhead(): TypeAhead {
    return { draft: this.editor.getText(), unsent: this.backlog ?? [] };
  }

  dispose(): void {
    this.unsubscribe?.();
    clearTimeout(this.hintTimer);
  }

  end(end: SessionEnd): void {
    this.over = true;
    this.finish(end);
  }

  /** A line of local feedback (not in the journal): command output, errors of the UI's own calls. */
  say(text: string): void {
    this.chat.notice(text);
    this.tui.requestRender();
  }

  private accept(input: Unsent): void {
    // Once the session has ended, what is sent is the next session's (typeAhead).
    if (this.backlog || this.over) (this.backlog ??= []).push(input);
    else void this.deliver(input);
  }

  private deliver({ text, followUp }: Unsent): Promise<void> {
    return followUp ? this.send(text, this.activity === "idle" ? "direct" : "follow_up") : this.submit(text);
  }

  async submit(raw: string): Promise<void> {
    const text = raw.trim();
    if (text === "") return;
    this.editor.addToHistory(text);
    if (text.startsWith("/") && (await this.slash.run(text))) return;
    // Enter while a run is going on steers it (pi's keys); Alt+Enter queues a follow-up instead.
    await this.send(text, this.activity === "idle" || this.activity === "failed" ? "direct" : "steer");
  }

  async send(text: string, delivery: "direct" | "steer" | "follow_up"): Promise<void> {
    try {
      await this.client.call("session.prompt", { delivery, text });
      if (delivery !== "direct") this.say(style.gray(`${delivery === "steer" ? "steering" : "queued as a follow-up"}: ${text}`));
    } catch (error) {
      if (delivery === "direct" && (await this.continued(text))) return;
      this.say(style.red(`not sent: ${(error as Error).message}`));
    }
  }

  /**
   * The view's activity comes from the session's events, which a slow extension listener can hold
   * back: a direct prompt then meets a run the view has not heard of yet, and is refused. `continue`
   * decides in the session, at once: it joins the run (as a follow-up) or starts one; what it refuses
   * too stays refused. Whether the text went.
   */
  private async continued(text: string): Promise<boolean> {
    try {
      const { admission } = await this.client.call<{ admission: string }>("session.prompt", { delivery: "continue", text });
      if (admission === "joined") this.say(style.gray(`queued as a follow-up: ${text}`));
      return true;
    } catch {
      return false;
    }
  }

  /** Esc: interrupt the run, or answer `deny` to the permission prompt on screen. Whether it acted. */
  interrupt(): boolean {
    if (this.activity === "idle") return false;
    this.hint("interrupting…");
    this.client.call("session.interrupt").catch((error) => this.say(style.red(`interrupt failed: ${(error as Error).message}`)));
    return true;
  }

  /** A list in the editor's place; Enter picks, Esc goes back. `selected`: the item highlighted first. */
  pick(items: SelectItem[], chosen: (value: string) => Promise<void>, selected?: number): void {
    if (items.length === 0) return this.say(style.yellow("nothing to choose from"));
    const list = new SelectList(items, 10, selectListTheme);
    if (selected !== undefined && selected >= 0) list.setSelectedIndex(selected);
    const back = () => {
      this.tui.hideOverlay();
      this.tui.setFocus(this.editor);
      this.tui.requestRender();
    };
    list.onCancel = back;
    list.onSelect = (item) => {
      back();
      chosen(item.value).catch((error) => this.say(style.red((error as Error).message)));
    };
    this.tui.showOverlay(list, { anchor: "bottom-center", width: "90%", margin: { bottom: 3 } });
  }

  /** Resolves once the transcript shows the path the session is on now (after `leaf_changed` or `session_switched`). */
  transcriptReloaded(): Promise<void> {
    return this.reloading;
  }

  private async reloadTranscript(): Promise<void> {
    this.chat.reset();
    await replayTranscript(this.client, this.chat).catch((error) => this.say(style.red(`session.get_messages failed: ${(error as Error).message}`)));
    await this.refreshState();
    await this.refreshUsage();
  }

  async refreshState(): Promise<void> {
    try {
      this.applyState(await this.client.call("session.get_state"));
      const mcp = await this.client.call<{ servers: { state: string }[] }>("mcp.list").catch(() => ({ servers: [] }));
      this.footer.state.mcp = { total: mcp.servers.length, ready: mcp.servers.filter((s) => s.state === "ready").length, failed: mcp.servers.filter((s) => s.state === "failed").length };
    } catch (error) {
      this.say(style.red(`session.get_state failed: ${(error as Error).message}`));
    }
    this.tui.requestRender();
  }

  async refreshUsage(): Promise<void> {
    const usage = await this.client.call<{ session: { cost: number }; children: { cost: number } }>("session.get_usage").catch(() => undefined);
    if (usage) this.footer.state.cost = usage.session.cost + usage.children.cost;
    this.tui.requestRender();
  }

  private ctrlC(): void {
    const now = Date.now();
    if (now - this.lastCtrlC < DOUBLE_PRESS_MS) return this.end({ type: "exit" });
    this.lastCtrlC = now;
    this.hint("press Ctrl+C again to exit");
  }

  private hint(text: string): void {
    clearTimeout(this.hintTimer);
    this.footer.state.hint = text;
    this.hintTimer = setTimeout(() => {
      this.footer.state.hint = undefined;
      this.tui.requestRender();
    }, DOUBLE_PRESS_MS).unref();
    this.tui.requestRender();
  }

  private applyState(state: any): void {
    const f = this.footer.state;
    f.model = state.model?.type === "selected" ? `${state.model.provider}/${state.model.id}` : NO_MODEL;
    f.thinking = state.thinkingLevel ?? "off";
    f.context = state.contextUsage?.type === "available" ? state.contextUsage : undefined;
    f.queued = (state.queuedInputs?.steering?.length ?? 0) + (state.queuedInputs?.followUp?.length ?? 0);
    this.activity = state.activity?.type ?? "idle";
    f.activity = this.activity;
    for (const request of (state.permissionRequests ?? []) as PermissionRequest[]) this.ask(request);
  }

  private onEvent(event: AgentSessionEvent): void {
    const e = event as any;
    const f = this.footer.state;
    switch (event.type) {
      case "activity_changed":
        this.activity = e.activity.type;
        f.activity = this.activity;
        if (this.activity === "idle" || this.activity === "failed") void this.refreshUsage();
        break;
      case "model_changed":
        f.model = `${e.model.provider}/${e.model.id}`;
        f.context = e.contextUsage?.type === "available" ? e.contextUsage : undefined;
        break;
      case "thinking_level_changed":
        f.thinking = e.thinkingLevel;
        break;
      case "queue_update":
        f.queued = e.steering.length + e.followUp.length;
        break;
      case "entry_appended":
        if (e.entry?.type === "message" && e.entry.message?.role === "assistant") void this.refreshState();
        if (e.entry?.type === "subagent") f.delegations = Math.max(0, f.delegations + (e.entry.data?.phase === "start" ? 1 : -1));
        break;
      case "mcp_server_changed":
        void this.refreshState();
        break;
      case "permission_requested":
        this.ask(e as PermissionRequest);
        break;
      case "permission_resolved":
        this.settled(e.requestId);
        break;
      // Another path of the tree, or another journal: the transcript on screen is redrawn from it.
      case "leaf_changed":
      case "session_switched":
        this.reloading = this.reloading.then(() => this.reloadTranscript());
        break;
    }
    this.chat.apply(event);
    this.tui.requestRender();
  }

  /** Shows a permission request in the editor's place; more than one wait their turn, oldest first. */
  private ask(request: PermissionRequest): void {
    if (this.prompts.some((prompt) => prompt.request.requestId === request.requestId)) return;
    const prompt = new PermissionPrompt(request, (decision) => void this.resolve(request, decision));
    this.prompts.push(prompt);
    if (this.prompts.length === 1) this.showPrompt();
  }

  private async resolve(request: PermissionRequest, decision: PermissionDecision): Promise<void> {
    try {
      await this.client.call("permission.resolve", { requestId: request.requestId, decision });
    } catch (error) {
      // not_found: settled meanwhile (a rule, a timeout, an interrupt); the resolved event clears it.
      this.say(style.gray(`permission: ${(error as Error).message}`));
      this.settled(request.requestId);
    }
  }

  private settled(requestId: string): void {
    const index = this.prompts.findIndex((prompt) => prompt.request.requestId === requestId);
    if (index < 0) return;
    this.prompts.splice(index, 1);
    this.showPrompt();
  }

  private showPrompt(): void {
    this.bottom.clear();
    const next = this.prompts[0];
    this.bottom.addChild(next ?? this.editor);
    this.tui.setFocus(next ?? this.editor);
    this.tui.requestRender();
  }
}
