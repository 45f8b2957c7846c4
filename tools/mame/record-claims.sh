#!/bin/sh
# Record every measurement of a claims file in MAME and evaluate the claims' checks on the recordings.
#
# Usage: tools/mame/record-claims.sh [--force] [--prune] ROM [CLAIMS_FILE [OUT_DIR]]
#   CLAIMS_FILE defaults to claims/sonic2.toml of this checkout, OUT_DIR to claims/mame.
#
# 1. `s2lab claims --export` writes each case as <claim id>/<key>.scenario.json (with its "setup");
# 2. each case is recorded with s2trace.py into OUT_DIR/<claim id>/<key>.trace.jsonl.gz, one at a time
#    (a MAME run takes one core), next to a copy of the scenario it was recorded from. A case is skipped
#    when OUT_DIR already holds its trace, made from the same ROM and from an identical scenario file;
#    --force records every case again. A changed case (edited claim, reordered vary) is recorded again.
#    Recordings in OUT_DIR of cases the claims file no longer has are listed; --prune deletes them.
# 3. `s2lab claims --reference OUT_DIR` evaluates the same checks on the recordings: its table is printed,
#    then the MAME agreement of every case that does not agree. The reports (claims.json, .md, .html)
#    go to a temporary directory (REPORT_DIR to choose it). Export and checks read one copy of the
#    claims file, taken at the start, so an edit made meanwhile does not mix two versions.
#
# The s2lab binary: $S2LAB, else target/release/s2lab of this checkout, else s2lab on PATH.
# Exit status: 0 every case recorded and agreeing; 1 a recording disagrees or is missing; 2 an error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
usage="usage: record-claims.sh [--force] [--prune] ROM [CLAIMS_FILE [OUT_DIR]]"
force=0; prune=0
while [ $# -gt 0 ]; do
  case $1 in
    --force) force=1; shift ;;
    --prune) prune=1; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) echo "record-claims: unknown option $1; $usage" >&2; exit 2 ;;
    *) break ;;
  esac
done
rom=${1:?$usage}
claims=${2:-$repo/claims/sonic2.toml}
out=${3:-$repo/claims/mame}
if [ -n "${S2LAB:-}" ]; then s2lab=$S2LAB
elif [ -x "$repo/target/release/s2lab" ]; then s2lab=$repo/target/release/s2lab
else s2lab=$(command -v s2lab) || { echo "record-claims: no s2lab binary (cargo build --release, or S2LAB=...)" >&2; exit 2; }
fi
[ -f "$rom" ] || { echo "record-claims: no ROM $rom" >&2; exit 2; }
[ -f "$claims" ] || { echo "record-claims: no claims file $claims" >&2; exit 2; }
tmp=$(mktemp -d /tmp/s2claims-mame.XXXXXX)
report=${REPORT_DIR:-$tmp/report}
# one copy of the claims file for the export and the checks (it may be edited while MAME records)
mkdir -p "$tmp/claims" && cp "$claims" "$tmp/claims/" && claims=$tmp/claims/$(basename "$claims")

# 1. export (s2lab claims exits 1 when a claim fails: a result, not an error here)
"$s2lab" claims --rom "$rom" "$claims" --export "$tmp/export" >"$tmp/export.log" 2>&1
rc=$?
if [ "$rc" -gt 1 ] || [ ! -d "$tmp/export" ]; then
  echo "record-claims: s2lab claims --export failed (exit $rc):" >&2; tail -20 "$tmp/export.log" >&2; exit 2
fi
[ "$rc" -eq 0 ] || grep -q '0 errors' "$tmp/export.log" || {
  echo "record-claims: some measurements could not run (not exported):" >&2; grep -i error "$tmp/export.log" >&2; }
sha=$(sha1sum "$rom" | cut -d' ' -f1)

# 2. record, one at a time
total=$(find "$tmp/export" -name '*.scenario.json' | wc -l)
i=0; recorded=0; skipped=0; failed=0; failures=""
for sc in $(cd "$tmp/export" && find . -name '*.scenario.json' | sed 's|^\./||' | sort); do
  i=$((i + 1))
  case_=${sc%.scenario.json}
  trace="$out/$case_.trace.jsonl.gz"
  kept="$out/$case_.scenario.json"
  if [ "$force" -eq 0 ] && [ -f "$trace" ] && [ -f "$kept" ] && cmp -s "$tmp/export/$sc" "$kept" \
       && gzip -dc "$trace" | head -n 1 | grep -q "\"rom_sha1\":\"$sha\""; then
    skipped=$((skipped + 1))
    continue
  fi
  mkdir -p "$(dirname "$trace")"
  if python3 "$here/s2trace.py" --rom "$rom" "$tmp/export/$sc" -o "$trace" >"$tmp/record.log" 2>&1; then
    cp "$tmp/export/$sc" "$kept"
    recorded=$((recorded + 1))
    echo "[$i/$total] $(tail -n 1 "$tmp/record.log")"
  else
    failed=$((failed + 1)); failures="$failures $case_"
    echo "[$i/$total] $case_: FAILED"; sed 's/^/    /' "$tmp/record.log" | tail -n 8
  fi
done
# recordings of cases the claims file no longer has
stale=0
if [ -d "$out" ]; then
  for t in $(cd "$out" && find . -name '*.trace.jsonl*' | sed 's|^\./||' | sort); do
    case_=${t%.trace.jsonl*}
    [ -f "$tmp/export/$case_.scenario.json" ] && continue
    stale=$((stale + 1))
    if [ "$prune" -eq 1 ]; then rm -f "$out/$t" "$out/$case_.scenario.json"; echo "pruned $case_"
    else echo "not in the claims file: $out/$t"; fi
  done
  [ "$prune" -eq 1 ] && find "$out" -mindepth 1 -type d -empty -delete
fi
[ "$stale" -eq 0 ] || [ "$prune" -eq 1 ] || echo "$stale recordings of cases no longer in the claims file (--prune deletes them)"
rm -rf "$tmp/export"
echo "$total cases: $recorded recorded, $skipped already recorded, $failed failed${failures:+:$failures}"

# 3. the checks on the recordings
"$s2lab" claims --rom "$rom" "$claims" --reference "$out" -o "$report" 2>"$tmp/claims.log"
python3 - "$report/claims.json" <<'EOF'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
cases = [(cl["id"], c) for cl in d["claims"] for c in cl["cases"]]
n = Counter(c["reference"]["status"] for _, c in cases)
print(f"MAME: {len(cases)} cases: " + ", ".join(f"{v} {k}" for k, v in sorted(n.items())))
for cid, c in cases:
    if c["reference"]["status"] != "agrees":
        print(f"  {cid}/{c['key']}: {c['reference']['status']}: {c['reference']['detail']}")
sys.exit(0 if set(n) <= {"agrees"} else 1)
EOF
agree=$?
echo "reports: $report/claims.{json,md,html}"
[ "$failed" -eq 0 ] || exit 2
exit "$agree"
