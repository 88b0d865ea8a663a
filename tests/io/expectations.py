"""The harness of the CLI scripts in this folder: collect failed expectations, report them all.

    check = Expectations()
    check.expect(code == 2, f"exit {code}")
    sys.exit(check.report())
"""


class Expectations:
    def __init__(self):
        self.failures = []

    def expect(self, cond, what):
        if not cond:
            self.failures.append(what)

    def report(self):
        """Prints each failure and their count; the script's exit status (1 when any failed)."""
        for f in self.failures:
            print("FAIL:", f)
        print(f"{len(self.failures)} failure(s)")
        return 1 if self.failures else 0
