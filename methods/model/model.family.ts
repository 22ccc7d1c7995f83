import type { MethodFamily } from "../../core/family/family-api.js";
import { ListModelsMethod } from "./list-models.method.js";
import { SelectModelMethod } from "./select-model.method.js";

export const modelFamily = {
  family: "model",
  methods: { "model.list": ListModelsMethod, "model.select": SelectModelMethod },
} satisfies MethodFamily;
