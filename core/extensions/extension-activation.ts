import { formatWithOptions } from "node:util";
import type { SystemPromptHook } from "../context/system-prompt-hooks.js";
import type { AgentTool } from "../session/agent-tool.js";
import type { ToolCallHook } from "../session/tool-call-gate.js";
import type { AgentSessionEvent } from "../wire/session-types.js";
import type { ExtensionCommand, ExtensionEventListener, ZiExtension, ZiExtensionApi } from "./extension-api.js";
import { oneLine } from "./one-line.js";
import { sliceChars } from "../wire/utf8-clip.js";
import type { ExtensionIdentity, ExtensionSession } from "./extension-types.js";

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What an activation needs from the host that owns every extension's registrations. */
export interface ExtensionRegistrar {
  readonly session: ExtensionSession;
  readonly cwd: string;
  readonly ziHome: string;
  commandOwner(name: string): ExtensionIdentity | undefined;
  toolOwner(name: string): ExtensionIdentity | undefined;
  commit(owner: ExtensionIdentity, commands: ReadonlyMap<string, ExtensionCommand>, tools: readonly AgentTool[], hooks: readonly ToolCallHook[], promptHooks: readonly SystemPromptHook[]): void;
  log(line: string): void;
}

interface Subscription {
  listener: (event: AgentSessionEvent) => void;
  unsubscribe?: () => void;
}

/**
 * One extension's load: its API object, and the commands, tools and listeners it registers, held back
 * until its default export has settled. Then all of them are admitted together, or none (the load
 * threw, timed out, or a registration was invalid or taken, even if the extension caught that throw).
 */
export class ExtensionActivation {
  readonly api: ZiExtensionApi;
  private phase: "loading" | "active" | "failed" = "loading";
  private readonly commands = new Map<string, ExtensionCommand>();
  private readonly tools = new Map<string, AgentTool>();
  private readonly promptHooks: SystemPromptHook[] = [];
  private readonly subscriptions = new Set<Subscription>();
  private readonly hooks: ToolCallHook[] = [];
  private rejected: string | undefined;

  constructor(
    private readonly identity: ExtensionIdentity,
    private readonly host: ExtensionRegistrar,
  ) {
    this.api = this.createApi();
  }

  /** Resolves to why the extension was not admitted, or undefined once it is. */
  async run(activate: ZiExtension, timeoutMs: number): Promise<string | undefined> {
    let failure: string | undefined;
    try {
      await ExtensionActivation.within(timeoutMs, Promise.resolve().then(() => activate(this.api)));
    } catch (error) {
      failure = error instanceof LoadTimeout ? error.message : `threw while loading: ${oneLine(error)}`;
    }
    failure = this.rejected ?? failure;
    if (failure !== undefined) {
      this.phase = "failed";
      for (const subscription of this.subscriptions) subscription.unsubscribe?.();
      this.subscriptions.clear();
      return failure;
    }
    this.host.commit(this.identity, this.commands, [...this.tools.values()], this.hooks, this.promptHooks);
    this.phase = "active";
    for (const subscription of this.subscriptions) subscription.unsubscribe = this.host.session.subscribe(subscription.listener);
    return undefined;
  }

  private createApi(): ZiExtensionApi {
    const { session, cwd, ziHome } = this.host;
    const usable = <A extends unknown[], R>(operation: (...args: A) => R) => (...args: A): R => {
      if (this.phase === "failed") throw new Error(`extension ${this.identity.name} was not loaded`);
      return operation(...args);
    };
    return Object.freeze({
      name: this.identity.name,
      cwd,
      ziHome,
      registerCommand: usable((name: string, command: ExtensionCommand) => this.registerCommand(name, command)),
      registerTool: usable((tool: AgentTool) => this.registerTool(tool)),
      onToolCall: usable((hook: ToolCallHook) => this.onToolCall(hook)),
      onSystemPrompt: usable((hook: SystemPromptHook) => this.onSystemPrompt(hook)),
      appendEntry: usable((customType: string, data?: unknown) => ({ id: session.appendCustomEntry(customType, data).id })),
      sendMessage: usable((message: Parameters<ZiExtensionApi["sendMessage"]>[0]) => ({ id: session.sendCustomMessage(message).id })),
      recordOutcome: usable((outcome: Parameters<ZiExtensionApi["recordOutcome"]>[0]) => session.recordOutcome(outcome)),
      replaceWorkPlan: usable((steps: Parameters<ZiExtensionApi["replaceWorkPlan"]>[0]) => session.replaceWorkPlan(steps)),
      getState: usable(() => session.getState()),
      on: usable((type: string, listener: ExtensionEventListener) => this.on(type, listener)),
      log: (...values: unknown[]) => this.host.log(`[${this.identity.name}] ${formatWithOptions({ colors: false }, ...values)}`),
    });
  }

  private registerCommand(name: string, command: ExtensionCommand): void {
    this.assertLoading("registerCommand");
    if (typeof name !== "string" || !COMMAND_NAME.test(name)) {
      this.reject(`invalid command name ${JSON.stringify(sliceChars(String(name), 78))}: use 1-64 letters, digits, ".", "_", ":" or "-", starting with a letter or digit`);
    }
    if (typeof command?.handler !== "function") this.reject(`command "${name}" needs a handler function`);
    if (command.description !== undefined && typeof command.description !== "string") this.reject(`command "${name}": description must be a string`);
    const owner = this.commands.has(name) ? this.identity : this.host.commandOwner(name);
    if (owner) this.reject(`duplicate command "${name}": already registered by ${owner.name}`);
    this.commands.set(name, { description: command.description, handler: command.handler.bind(command) });
  }

  private registerTool(tool: AgentTool): void {
    this.assertLoading("registerTool");
    const name = tool?.name;
    if (typeof name !== "string" || !TOOL_NAME.test(name)) {
      this.reject(`invalid tool name ${JSON.stringify(sliceChars(String(name), 78))}: use 1-64 letters, digits, "_" or "-"`);
    }
    if (typeof tool.description !== "string") this.reject(`tool "${name}" needs a description string`);
    if (typeof tool.parameters !== "object" || tool.parameters === null || Array.isArray(tool.parameters)) {
      this.reject(`tool "${name}" needs a JSON Schema object as parameters`);
    }
    if (typeof tool.execute !== "function") this.reject(`tool "${name}" needs an execute function`);
    const owner = this.tools.has(name) ? this.identity : this.host.toolOwner(name);
    if (owner) this.reject(`duplicate tool "${name}": already registered by ${owner.name}`);
    this.tools.set(name, tool);
  }

  private onToolCall(hook: ToolCallHook): void {
    this.assertLoading("onToolCall");
    if (typeof hook !== "function") this.reject("onToolCall(hook): hook must be a function");
    this.hooks.push(hook);
  }

  private onSystemPrompt(hook: SystemPromptHook): void {
    this.assertLoading("onSystemPrompt");
    if (typeof hook !== "function") this.reject("onSystemPrompt(hook): hook must be a function");
    this.promptHooks.push(hook);
  }

  private on(type: string, listener: ExtensionEventListener): () => void {
    if (typeof type !== "string" || type === "") throw new TypeError('on(type, listener): type must be an event type or "*"');
    if (typeof listener !== "function") throw new TypeError("on(type, listener): listener must be a function");
    const failed = (error: unknown): void => this.host.log(`zi: extension ${this.identity.name}: ${type} listener failed: ${oneLine(error)}`);
    const subscription: Subscription = {
      // Never returns the listener's promise: an extension must not hold back the session's events.
      listener: (event) => {
        if (type !== "*" && event.type !== type) return;
        try {
          const result = listener(event);
          if (typeof (result as Promise<void> | undefined)?.then === "function") (result as Promise<void>).then(undefined, failed);
        } catch (error) {
          failed(error);
        }
      },
    };
    this.subscriptions.add(subscription);
    if (this.phase === "active") subscription.unsubscribe = this.host.session.subscribe(subscription.listener);
    return () => {
      subscription.unsubscribe?.();
      this.subscriptions.delete(subscription);
    };
  }

  private assertLoading(method: string): void {
    if (this.phase !== "loading") throw new Error(`${method} is only possible while the extension loads (in its default export)`);
  }

  /** The first invalid registration fails the whole extension, even if the extension catches the throw. */
  private reject(message: string): never {
    this.rejected ??= message;
    throw new Error(message);
  }

  private static within(timeoutMs: number, work: Promise<unknown>): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LoadTimeout(timeoutMs)), timeoutMs);
      timer.unref();
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }
}

class LoadTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`did not finish loading within ${timeoutMs} ms`);
  }
}
