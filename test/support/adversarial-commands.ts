/** The adversarial tables of issue 24, shared by the rule tests (against real bash) and the ACP end-to-end test. */

/** The crafted commands: each makes real bash create a file an allow rule for `ls`/`git status` never allowed. */
export const CRAFTED: [command: string, creates: string][] = [
  ["ls x#; touch PWNED", "PWNED"],
  ["git status #\ntouch PWNED", "PWNED"],
  ["ls `#`; touch PWNED", "PWNED"],
  ["ls $'\\''\ntouch PWNED", "PWNED"],
  ["ls ~#; touch PWNED", "PWNED"],
  ["ls > 1", "1"],
  ["ls >-", "-"],
  ["ls <<EOF\n$(touch PWNED)\nEOF", "PWNED"],
  ["ls \\\n; touch PWNED", "PWNED"],
  ['git status "$(touch PWNED)"', "PWNED"],
  ["ls | tee PWNED", "PWNED"],
  ["ls; IFS=x; touch PWNED", "PWNED"],
];

/** Ways to delete a file that a `deny rm` rule must stop (default `allow`: only the rule stands in the way). */
export const DELETIONS: string[] = [
  "rm victim",
  "rm -f victim",
  "true && rm victim",
  "env rm victim",
  "env -i FOO=1 /usr/bin/rm victim",
  "/bin/rm victim",
  "\\rm victim",
  "'rm' victim",
  "r''m victim",
  "command rm victim",
  "exec rm victim",
  "nice -n 5 rm victim",
  "nohup rm victim",
  "timeout 10 rm victim",
  "time rm victim",
  "bash -c 'rm victim'",
  'sh -c "rm victim"',
  "eval 'rm victim'",
  "echo victim | xargs rm",
  "find . -name victim -delete",
  "find . -name victim -exec rm {} \\;",
  "x=rm; $x victim",
  "$(echo rm) victim",
  "echo $(rm victim)",
];
