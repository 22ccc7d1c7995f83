import { inject } from "tsyringe";
import { RpcMethod } from "../../core/kernel/rpc-method.decorator.js";
import type { RpcHandler } from "../../core/kernel/rpc-handler.js";
import { SESSION, type SessionPort } from "../../core/ports/session.port.js";
import { PromptParams } from "./prompt.params.js";
import { closed, count, ref } from "../../core/wire/json-schema.js";

/** Answers once the input is admitted; the work itself is followed through events or await_idle. */
@RpcMethod("session.prompt", {
  params: PromptParams,
  summary: "Admits input (not its completion). `direct` while running is operation_failed.",
  result: closed({ delivery: ref("Delivery"), admission: { enum: ["started", "queued", "joined"] }, completionRevision: count }, ["completionRevision"]),
  // The run must see every tool and hook that plugins and extensions register.
  awaitsStartup: true,
})
export class PromptMethod implements RpcHandler<PromptParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: PromptParams) {
    return this.session.prompt({ delivery: params.delivery, text: params.text, completionId: params.completionId });
  }
}
