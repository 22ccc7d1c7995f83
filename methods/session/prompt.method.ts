import { RpcMethod, SESSION, closed, count, inject, literal, ref, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { PromptParams } from "./prompt.params.js";

/** Answers once the input is admitted; the work itself is followed through events or await_idle. */
@RpcMethod({
  params: PromptParams,
  summary: "Admits input (not its completion). `direct` while running is operation_failed.",
  result: closed({ delivery: ref("Delivery"), admission: literal("started", "queued", "joined"), completionRevision: count }, ["completionRevision"]),
  // The run must see every tool and hook that plugins and extensions register.
  awaitsStartup: true,
})
export class PromptMethod implements RpcHandler<PromptParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PromptParams) {
    return this.session.prompt({ delivery: params.delivery, text: params.text, completionId: params.completionId });
  }
}
