import { lazy, type MethodFamily } from "../../core/family/family-api.js";

export const modelFamily = {
  family: "model",
  methods: {
    "model.list": lazy(() => import("./list-models.method.js"), "ListModelsMethod"),
    "model.select": lazy(() => import("./select-model.method.js"), "SelectModelMethod"),
  },
} satisfies MethodFamily;
