/**
 * Whether traces are exported, from the standard OpenTelemetry variables only: an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or `OTEL_TRACES_EXPORTER=otlp`
 * turns them on; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keeps them off. Off is the
 * default, and then nothing of OpenTelemetry is loaded.
 */
export class TelemetrySwitch {
  static enabled(env: NodeJS.ProcessEnv): boolean {
    if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
    const exporter = (env.OTEL_TRACES_EXPORTER ?? "").trim().toLowerCase();
    if (exporter === "none") return false;
    return exporter === "otlp" || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  }
}
