import { describe, expect, it } from "@jest/globals";
import { stringify } from "yaml";
import { builtinProfiles } from "../../../plugins/delegation/builtin-profiles.js";
import { parseProfile } from "../../../plugins/delegation/profile-parser.js";

describe("built-in delegation profiles", () => {
  it("are what the parser makes of them written as profile files (the format users write)", () => {
    const profiles = builtinProfiles();
    expect(profiles.map((profile) => profile.name)).toEqual(["explore", "worker"]);
    for (const profile of profiles) {
      const { systemPrompt, origin, source, ...front } = profile;
      const file = `---\n${stringify(front)}---\n${systemPrompt}\n`;
      expect(parseProfile(file, source, origin)).toEqual(profile);
    }
  });

  it("gives every caller its own copies", () => {
    const first = builtinProfiles();
    first[0]!.tools!.push("bash");
    first[1]!.description = "changed";
    expect(builtinProfiles()[0]!.tools).toEqual(["read", "ls", "grep", "find"]);
    expect(builtinProfiles()[1]!.description).not.toBe("changed");
  });
});
