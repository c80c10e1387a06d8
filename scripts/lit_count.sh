# Sourced by scripts/test.sh and scripts/sanitize.sh: lit_count NAME FILE
# prints the count of lit's summary line NAME (Passed, Failed, ...) in FILE,
# nothing when there is none. The lines read "  Passed: 72 (98.63%)", or
# "  Passed     : 72 (...)" when aligned with a longer name.
lit_count() {
  grep -aE "^ *$1 *:" "$2" | sed -E 's/.*: *([0-9]+).*/\1/' || true
}
