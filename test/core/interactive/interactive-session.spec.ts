import { describe, expect, it } from "@jest/globals";
import { TUI, type Terminal } from "@mariozechner/pi-tui";
import { InteractiveSession } from "../../../core/interactive/interactive-session.js";
import type { SessionClient } from "../../../core/interactive/session-client.js";

/** A terminal that draws nowhere: the session's components render, nothing is shown. */
const nowhere: Terminal = {
  start: () => undefined,
  stop: () => undefined,
  drainInput: async () => undefined,
  write: () => undefined,
  columns: 80,
  rows: 24,
  kittyProtocolActive: false,
  moveBy: () => undefined,
  hideCursor: () => undefined,
  showCursor: () => undefined,
  clearLine: () => undefined,
  clearFromCursor: () => undefined,
  clearScreen: () => undefined,
  setTitle: () => undefined,
  setProgress: () => undefined,
};

const IDLE = { model: { type: "selected", provider: "faux", id: "echo" }, thinkingLevel: "off", activity: { type: "idle" } };

/** Protocol answers for an idle session on faux/echo; every call recorded in order. */
class FakeClient implements SessionClient {
  readonly calls: { method: string; params?: any }[] = [];
  readonly ready = Promise.resolve({ state: IDLE, limits: undefined });

  constructor(private readonly commands: string[] = []) {}

  async call<T>(method: string, params?: object): Promise<T> {
    this.calls.push({ method, params });
    const answers: Record<string, unknown> = {
      "session.get_state": IDLE,
      "command.list": { commands: this.commands.map((name) => ({ name })) },
      "command.invoke": { message: "invoked" },
      "mcp.list": { servers: [] },
      "session.get_usage": { session: { cost: 0 }, children: { cost: 0 } },
      "session.prompt": { delivery: (params as { delivery?: string } | undefined)?.delivery, admission: "started" },
    };
    if (!(method in answers)) throw new Error(`unexpected ${method}`);
    return answers[method] as T;
  }

  onEvent(): () => void {
    return () => undefined;
  }

  async close(): Promise<number> {
    return 0;
  }

  /** The calls that sent input: method and what was sent. */
  sent(): string[] {
    return this.calls.filter((call) => call.method === "session.prompt" || call.method === "command.invoke").map((call) => `${call.params.delivery ?? "invoke"}:${call.params.text ?? call.params.name}`);
  }
}

/** Keys as the terminal hands them to the focused editor, one sequence each. */
function type(session: InteractiveSession, keys: string): void {
  for (const key of keys) session.editor.handleInput(key);
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function view(client: FakeClient): InteractiveSession {
  const tui = new TUI(nowhere);
  const session = new InteractiveSession(tui, client, process.cwd());
  tui.setFocus(session.editor);
  return session;
}

describe("InteractiveSession's type-ahead", () => {
  it("keeps an Enter typed before start() until the session is ready, then sends it once, after the command line's prompt", async () => {
    const client = new FakeClient();
    const session = view(client);
    type(session, "early\r");
    await settle();
    expect(client.sent()).toEqual([]);
    await session.start("first");
    expect(client.sent()).toEqual(["direct:first", "direct:early"]);
    await settle();
    expect(client.sent()).toEqual(["direct:first", "direct:early"]);
    session.dispose();
  });

  it("leaves what follows the Enter in the editor, and sends later Enters straight away", async () => {
    const client = new FakeClient();
    const session = view(client);
    type(session, "one\rtwo");
    await session.start(undefined);
    expect(session.editor.getText()).toBe("two");
    type(session, "\r");
    await settle();
    expect(client.sent()).toEqual(["direct:one", "direct:two"]);
    session.dispose();
  });

  it("runs a typed-ahead /command only once the extensions' commands are listed, in the order typed", async () => {
    const client = new FakeClient(["gated"]);
    const session = view(client);
    type(session, "/gated\rhello\r");
    await session.start(undefined);
    expect(client.sent()).toEqual(["invoke:gated", "direct:hello"]);
    expect(client.calls.findIndex((call) => call.method === "command.list")).toBeLessThan(client.calls.findIndex((call) => call.method === "command.invoke"));
    session.dispose();
  });

  it("a typed-ahead /new ends the session; what came after it is carried to the next one, not sent to this one", async () => {
    const first = new FakeClient();
    const ending = view(first);
    type(ending, "/new\rhello\rdraft");
    await ending.start(undefined);
    expect(await ending.ended).toEqual({ type: "new" });
    expect(first.sent()).toEqual([]);
    const carried = ending.typeAhead();
    expect(carried).toEqual({ draft: "draft", unsent: [{ text: "hello", followUp: false }] });
    ending.dispose();

    const second = new FakeClient();
    const next = view(second);
    next.carry(carried);
    expect(next.editor.getText()).toBe("draft");
    await next.start(undefined);
    expect(second.sent()).toEqual(["direct:hello"]);
    next.dispose();
  });

  it("sends nothing more once the session has ended: an Enter after that is the next session's", async () => {
    const client = new FakeClient();
    const session = view(client);
    await session.start(undefined);
    session.end({ type: "new" });
    type(session, "late\r");
    await settle();
    expect(client.sent()).toEqual([]);
    expect(session.typeAhead().unsent).toEqual([{ text: "late", followUp: false }]);
    session.dispose();
  });
});

/**
 * A session whose run started while its events were held back (a slow extension listener): a direct
 * prompt is refused, `continue` joins the run; with `refusesAll`, the session takes no prompt at all.
 */
class BusyClient extends FakeClient {
  running = false;
  refusesAll = false;

  override async call<T>(method: string, params?: object): Promise<T> {
    const delivery = (params as { delivery?: string } | undefined)?.delivery;
    if (this.running && method === "session.prompt" && (delivery === "direct" || this.refusesAll)) {
      this.calls.push({ method, params });
      throw new Error(this.refusesAll ? "no model selected" : "session is running; use steer, follow_up or continue");
    }
    if (this.running && method === "session.prompt" && delivery === "continue") {
      this.calls.push({ method, params });
      return { delivery, admission: "joined" } as T;
    }
    return super.call(method, params);
  }
}

describe("InteractiveSession's delivery, when its events lag behind the session", () => {
  it("an Enter or Alt+Enter that meets a run the view has not heard of joins it as a follow-up, once", async () => {
    const client = new BusyClient();
    const session = view(client);
    await session.start(undefined);
    client.running = true;
    await session.submit("hello");
    await session.send("later", "direct");
    expect(client.sent()).toEqual(["direct:hello", "continue:hello", "direct:later", "continue:later"]);
    session.dispose();
  });

  it("a prompt the session refuses however it is sent is reported, not sent again", async () => {
    const client = new BusyClient();
    const session = view(client);
    await session.start(undefined);
    client.running = true;
    client.refusesAll = true;
    await session.send("again", "direct");
    expect(client.sent()).toEqual(["direct:again", "continue:again"]);
    await session.send("steered", "steer");
    expect(client.sent()).toEqual(["direct:again", "continue:again", "steer:steered"]);
    session.dispose();
  });
});
