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

/**
 * Bash builtins that run code their words hold, and commands whose options run a command or write a
 * file, each under an allow rule naming it (a user who allows `printf`, `test`, `find` or `rg` allows a
 * plain command, not code or a write): never allowed unasked.
 */
export const BUILTIN_CRAFTED: [command: string, creates: string][] = [
  ["printf -v 'a[$(touch PWNED)]' x", "PWNED"],
  ["test -v 'a[$(touch PWNED)]'", "PWNED"],
  ["[ -v 'a[$(touch PWNED)]' ]", "PWNED"],
  ["echo x | read 'a[$(touch PWNED)]'", "PWNED"],
  ['echo x | mapfile -C "touch PWNED; true" -c 1', "PWNED"],
  ["hash -p /usr/bin/touch ls; ls PWNED", "PWNED"],
  ["find . -maxdepth 0 -fprint PWNED", "PWNED"],
  ["rg --pre sh touch script.txt", "PWNED"],
  ["rg --pre=sh touch script.txt", "PWNED"],
  ["jobs -x touch PWNED", "PWNED"],
  ["jobs -x -- touch PWNED", "PWNED"],
];
/** The file those rows find beside the victim (what `rg --pre sh` runs). */
export const BUILTIN_SETUP = { "script.txt": "touch PWNED\n" };
/** The allow rules of that table: the builtins, and commands whose options run or write (`find`, `rg`). */
export const BUILTIN_ALLOWED = ["ls", "echo", "printf", "test", "read", "mapfile", "hash", "find", "rg", "jobs"];

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
  "hash -p /bin/rm ls; ls victim",
  'echo a | mapfile -C "rm victim; true" -c 1',
  "[ -v 'a[$(rm victim)]' ]",
  "printf -v 'a[$(rm victim)]' x",
  "echo x | read 'a[$(rm victim)]'",
  "trap 'rm victim' EXIT",
  "rg --pre rm x victim",
  "jobs -x rm victim",
  "jobs -x -- rm victim",
  "trap -- 'rm victim' EXIT",
  "echo a | mapfile -tC 'rm victim; true' -c 1 v",
  "echo a | mapfile -C'rm victim; true' -c 1 v",
];
