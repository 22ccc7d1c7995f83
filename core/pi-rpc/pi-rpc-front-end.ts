import { RpcError } from "../kernel/rpc-error.js";
import { RPC_LIMITS } from "../wire/limits.js";
import type { AgentSessionEvent, PermissionRequest } from "../wire/session-types.js";
import { PiCommands, type PiCommand } from "./pi-commands.js";
import { EncodedEvent, PiEventMapper } from "./pi-event-mapper.js";
import { PiExtensionUi, type ExtensionUiResponse } from "./pi-extension-ui.js";
import type { PiRpcFlags } from "./pi-rpc-options.js";
import type { PiJournalStart } from "./pi-sessions.js";
import type { MethodCalls } from "./method-calls.js";

type Frame = Record<string, unknown> | EncodedEvent;

/** Commands waiting their turn before stdin stops being read (RPC mode holds its input at the same count). */
const QUEUED_COMMANDS = 128;

/** Writes one frame as one JSONL record; resolves once it has left the process (backpressure). */
export type FrameSender = (frame: Frame) => Promise<void>;

/**
 * The pi-RPC wire on Zi's methods: one parsed line in, pi's responses and bare events out. Commands are
 * answered in input order (a waiting one, such as `abort`, lets later ones through, as pi handles every
 * line without waiting); a `prompt`'s response precedes the events it causes, as pi's does.
 */
export class PiRpcFrontEnd {
  private readonly commands: PiCommands;
  private readonly mapper = new PiEventMapper();
  private readonly ui: PiExtensionUi;
  private chain: Promise<void> = Promise.resolve();
  /** Commands handed in and not answered yet: those waiting their turn and those running. */
  private inFlight = 0;
  /** Waiting (`abort`, `abort_retry`) commands running: Zi's 32 in-flight operations. */
  private waiting = 0;
  private paused = false;
  /** Events that arrive while a prompt's response is pending; written right after it. */
  private held: Frame[] | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly methods: MethodCalls,
    private readonly send: FrameSender,
    private readonly log: (message: string) => void,
    flags: PiRpcFlags | undefined,
    /** Commands wait for this (the command line's model and thinking level applied) before the first runs. */
    startup: Promise<void> = Promise.resolve(),
    journal?: PiJournalStart,
    /** Stops and restarts reading stdin: commands waiting their turn are bounded as RPC mode's input is. */
    private readonly flow: { pause(): void; resume(): void } = { pause: () => undefined, resume: () => undefined },
  ) {
    this.ui = new PiExtensionUi(methods, send, log);
    this.commands = new PiCommands(methods, this.ui, flags, journal);
    this.chain = startup;
  }

  /** The command names this front end serves: pi's RpcCommand union (checked by a test against pi's package). */
  get commandNames(): string[] {
    return [...this.commands.table.keys()];
  }

  attach(): void {
    this.unsubscribe = this.methods.onEvent((event) => this.onEvent(event));
  }

  detach(): void {
    this.unsubscribe?.();
  }

  /** Resolves once every command handed in so far has answered. */
  settled(): Promise<void> {
    return this.chain;
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** One record from stdin (LF-split by the caller, trailing CR stripped). */
  line(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return this.answerInOrder(failure(undefined, "parse", `Failed to parse command: ${(error as Error).message}`));
    }
    const record = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Frame;
    // Dialog answers are never held behind commands: a permission answer may be what a command waits for.
    if (record.type === "extension_ui_response") {
      void this.ui.answer(record as unknown as ExtensionUiResponse);
      return;
    }
    const command = record as PiCommand;
    const spec = typeof command.type === "string" ? this.commands.table.get(command.type) : undefined;
    // As pi: an unknown command's response carries no id.
    if (!spec) return this.answerInOrder(failure(undefined, String(command.type), `Unknown command: ${String(command.type)}`));
    if (typeof command.id === "string" && Buffer.byteLength(command.id) > RPC_LIMITS.maxRequestIdBytes) {
      return this.answerInOrder(failure(undefined, command.type, `id is longer than ${RPC_LIMITS.maxRequestIdBytes} bytes`));
    }
    if (spec.concurrent && this.waiting >= RPC_LIMITS.maxInFlight) {
      // Not behind the others: the bound is what the client hit now.
      return void this.send(failure(command.id, command.type, `${RPC_LIMITS.maxInFlight} commands are waiting on the session; wait for a response before sending more`));
    }
    this.inFlight++;
    this.throttle();
    if (spec.concurrent) this.waiting++;
    const run = async () => {
      const holding = command.type === "prompt";
      if (holding) this.held ??= [];
      try {
        const outcome = await spec.run(command);
        await this.send({ ...(command.id === undefined ? {} : { id: command.id }), type: "response", command: command.type, success: true, ...(outcome ?? {}) });
      } catch (error) {
        await this.send(failure(command.id, command.type, this.describe(error)));
      } finally {
        this.inFlight--;
        this.throttle();
        if (spec.concurrent) this.waiting--;
        if (holding) await this.release();
      }
    };
    if (spec.concurrent) {
      // Started in input order, answered whenever it settles.
      this.chain = this.chain.then(() => void run());
    } else {
      this.chain = this.chain.then(run);
    }
  }

  /** Input stops at QUEUED_COMMANDS waiting commands and goes on at half that (one pause, one resume). */
  private throttle(): void {
    if (!this.paused && this.inFlight >= QUEUED_COMMANDS) {
      this.paused = true;
      this.flow.pause();
    } else if (this.paused && this.inFlight <= QUEUED_COMMANDS / 2) {
      this.paused = false;
      this.flow.resume();
    }
  }

  /** A refusal answered in input order, after the commands before it. */
  private answerInOrder(frame: Record<string, unknown>): void {
    this.chain = this.chain.then(() => this.send(frame));
  }

  private async release(): Promise<void> {
    const held = this.held ?? [];
    this.held = undefined;
    for (const frame of held) await this.send(frame);
  }

  private onEvent(event: AgentSessionEvent): Promise<void> | void {
    if (event.type === "permission_requested") void this.ui.ask(event as unknown as PermissionRequest);
    const frames = this.mapper.map(event);
    if (this.held) {
      this.held.push(...frames);
      return;
    }
    let last: Promise<void> | undefined;
    for (const frame of frames) last = this.send(frame);
    return last;
  }

  /** Zi's own message for its failures (params problems named); anything unexpected stays on stderr. */
  private describe(error: unknown): string {
    if (error instanceof RpcError) {
      const details = Array.isArray(error.details) ? error.details.map((d: { field: string; problem: string }) => `${d.field}: ${d.problem}`).join("; ") : "";
      return details ? `${error.message} (${details})` : error.message;
    }
    this.log(`zi: pi-rpc: ${(error as Error)?.stack ?? String(error)}`);
    return "internal error (see stderr)";
  }
}

function failure(id: unknown, command: string, error: string): Record<string, unknown> {
  return { ...(id === undefined ? {} : { id }), type: "response", command, success: false, error };
}
