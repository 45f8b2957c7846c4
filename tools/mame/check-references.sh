#!/bin/sh
# Re-record every reference scenario in MAME, one at a time, and compare each new trace with the reference
# (formats.md §4; also reports whether the files are byte-identical).
# Usage: tools/mame/check-references.sh ROM [TRACES_DIR [OUT_DIR]]
#   TRACES_DIR defaults to traces/ of this checkout; OUT_DIR to a new temporary directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rom=${1:?usage: check-references.sh ROM [TRACES_DIR [OUT_DIR]]}
traces=${2:-$here/../../traces}
out=${3:-$(mktemp -d /tmp/s2trace-check.XXXXXX)}
mkdir -p "$out"
pass=0; fail=0; failed=""
for sc in "$traces"/*.scenario.json "$traces"/terrain/*.scenario.json; do
  name=$(basename "$sc" .scenario.json)
  ref="${sc%.scenario.json}.trace.jsonl.gz"
  [ -f "$ref" ] || continue
  t0=$(date +%s)
  if python3 "$here/s2trace.py" --rom "$rom" "$sc" -o "$out/$name.trace.jsonl" --compare "$ref" \
       >"$out/$name.log" 2>&1; then
    pass=$((pass + 1)); verdict=agree
    if gzip -dc "$ref" | cmp -s - "$out/$name.trace.jsonl"; then verdict="agree, byte-identical"; fi
  else
    fail=$((fail + 1)); failed="$failed $name"; verdict="DIFFERS (see $out/$name.log)"
  fi
  echo "$name: $verdict, $(( $(date +%s) - t0 )) s"
done
echo "$pass agree, $fail differ${failed:+:$failed}; traces in $out"
[ "$fail" -eq 0 ]
