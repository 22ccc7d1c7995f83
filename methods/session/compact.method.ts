import { RpcMethod, SESSION, closed, count, inject, str, type RpcHandler, type SessionPort } from "../../core/family/family-api.js";
import { CompactParams } from "./compact.params.js";

@RpcMethod({
  params: CompactParams,
  summary:
    "Idle only. Summarises the older context now, as the session does by itself near the window (compaction_start/compaction_end, reason `manual`); answers the compaction entry's summary, first kept entry and the context size before. operation_failed when nothing was compacted (nothing old enough, the summary failed, interrupted).",
  result: closed({ summary: str, firstKeptEntryId: str, tokensBefore: count }),
})
export class CompactMethod implements RpcHandler<CompactParams> {
  constructor(@inject(SESSION) private readonly session: SessionPort) {}

  handle(params: CompactParams = {}) {
    return this.session.compact(params.instructions);
  }
}
