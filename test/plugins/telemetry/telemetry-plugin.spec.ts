import { describe, expect, it, jest } from "@jest/globals";
import { createTelemetryPlugin } from "../../../plugins/telemetry/telemetry.plugin.js";
import { TelemetrySwitch } from "../../../plugins/telemetry/telemetry-switch.js";

describe("the telemetry plugin's switch", () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }, true],
    [{ OTEL_TRACES_EXPORTER: "otlp" }, true],
    [{ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, false],
    [{ OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, false],
  ])("%j: %s", (env, enabled) => {
    expect(TelemetrySwitch.enabled(env as NodeJS.ProcessEnv)).toBe(enabled);
  });

  it("off, the plugin neither listens to events nor asks for the session's state (nothing of OpenTelemetry is loaded)", async () => {
    const zi = { on: jest.fn(), getState: jest.fn() };
    await createTelemetryPlugin({}).extension(zi as never, undefined);
    expect(zi.on).not.toHaveBeenCalled();
    expect(zi.getState).not.toHaveBeenCalled();
  });
});
