import type { ZiPlugin } from "../../core/extensions/zi-plugin.js";
import { TelemetrySwitch } from "./telemetry-switch.js";

/**
 * OpenTelemetry traces of the session's runs, model calls and tool calls (docs/headless.md, "Traces"),
 * built from session events. Off unless the standard OTEL_* variables ask for it; only then is the
 * tracer (and the OpenTelemetry SDK with it) imported, so a Zi without them pays nothing.
 */
export function createTelemetryPlugin(env: NodeJS.ProcessEnv = process.env) {
  return {
    name: "telemetry",
    extension: async (zi, services) => {
      if (!TelemetrySwitch.enabled(env)) return;
      const { SessionTracer } = await import("./session-tracer.js");
      const tracer = new SessionTracer(env, zi.getState().sessionId);
      zi.on("*", (event) => tracer.observe(event));
      services?.childSessions.observe?.((child, spec) => tracer.observeChild({ subscribe: (listener) => child.session.subscribe(listener), agent: spec.agent, sessionId: child.sessionId }));
      services?.onDispose(() => tracer.shutdown());
    },
  } satisfies ZiPlugin;
}
