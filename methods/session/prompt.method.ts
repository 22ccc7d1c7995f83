import { RpcError, RpcMethod, SESSION, closed, count, inject, literal, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { PromptParams } from "./prompt.params.js";

/** Answers once the input is admitted; the work itself is followed through events or await_idle. */
@RpcMethod({
  params: PromptParams,
  rehearsal: { delivery: "direct", text: "zi: a rehearsal of admission", completionId: "zi-rehearsal" },
  summary:
    "Admits input (not its completion). `direct` while running is operation_failed. `images` the selected model cannot take are invalid_request (`params.images`), before admission.",
  result: closed({ delivery: ref("Delivery"), admission: literal("started", "queued", "joined"), completionRevision: count }, ["completionRevision"]),
})
export class PromptMethod implements RpcHandler<PromptParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PromptParams) {
    if (params.images !== undefined && params.images.length > 0) {
      // Thrown before anything is admitted: the kernel answers it as a params problem (applied: no).
      const problem = this.session.imageRefusal();
      if (problem !== undefined) throw new RpcError("invalid_request", "invalid params", [{ field: "params.images", problem }]);
    }
    const images = params.images?.map(({ type, data, mimeType }) => ({ type, data, mimeType }));
    const input = { delivery: params.delivery, text: params.text, completionId: params.completionId, images };
    const { outputSchema, traceparent } = params;
    return this.session.prompt({ ...input, ...(outputSchema !== undefined && { outputSchema }), ...(traceparent !== undefined && { traceparent }) });
  }
}
