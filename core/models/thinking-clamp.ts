import { THINKING_LEVELS } from "../wire/session-types.js";
import type { ThinkingLevel } from "../wire/session-types.js";

/**
 * pi-ai's clamping rule over a precomputed list of supported levels: the requested level if
 * supported, else the next stronger one, else the next weaker one. Kept synchronous and free of
 * pi-ai so the session can clamp without awaiting a module load.
 */
export function clampThinkingLevel(supported: readonly ThinkingLevel[], level: ThinkingLevel): ThinkingLevel {
  if (supported.includes(level)) return level;
  const requested = THINKING_LEVELS.indexOf(level);
  const stronger = THINKING_LEVELS.slice(requested + 1).find((candidate) => supported.includes(candidate));
  if (stronger) return stronger;
  const weaker = THINKING_LEVELS.slice(0, Math.max(requested, 0)).reverse().find((candidate) => supported.includes(candidate));
  return weaker ?? supported[0] ?? "off";
}
