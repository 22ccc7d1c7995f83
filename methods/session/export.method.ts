import { RpcMethod, SESSIONS, inject, type RpcHandler, type SessionsPort } from "../../core/family/family-api.js";
import { ExportParams } from "./export.params.js";
import { EXPORT_RESULT } from "./session-tree.schemas.js";

@RpcMethod({
  params: ExportParams,
  summary: "Writes the journal as one self-contained HTML page (every branch, no network) or as its JSONL; answers the file and its size.",
  result: EXPORT_RESULT,
})
export class ExportMethod implements RpcHandler<ExportParams> {
  constructor(@inject(SESSIONS) private readonly sessions: SessionsPort) {}

  handle(params: ExportParams) {
    return this.sessions.export(params.format, params.path);
  }
}
