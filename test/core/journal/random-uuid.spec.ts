import { describe, expect, it } from "@jest/globals";
import { randomUuid } from "../../../core/journal/random-uuid.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  it("makes version-4 UUIDs in crypto.randomUUID's form, none repeated across the pool's refills", () => {
    const ids = Array.from({ length: 1000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws its random bits evenly (every hex digit of the random positions appears about as often)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const hex = randomUuid().replaceAll("-", "");
      // Positions 12 (the version) and 16 (the variant) are fixed or partly fixed.
      for (const [at, digit] of [...hex].entries()) if (at !== 12 && at !== 16) counts.set(digit, (counts.get(digit) ?? 0) + 1);
    }
    // 60,000 digits: 3,750 expected per digit; a uniform source stays within ±10% (over 6 standard deviations of 59).
    expect(counts.size).toBe(16);
    for (const count of counts.values()) expect(Math.abs(count - 3750)).toBeLessThan(375);
  });
});
