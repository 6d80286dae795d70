#!/usr/bin/env bash
# Coverage-guided fuzzing of pinctl's parsers with libFuzzer (Tests/Fuzz/README.md).
#   scripts/fuzz.sh [--seconds N] [--runs N] [--seed N] [--skip-build] [TARGET...]
# Builds the fuzz targets in the instrumented build the suite under ASan shares (scripts/lib/instrumented-build.sh,
# .build-asan/: nothing to build after scripts/test-asan.sh), then runs each target, or the ones named, as many at once
# as there are processors, for N seconds or N executions, whichever ends first (default 30 s), from the committed seeds
# (Tests/Fuzz/corpus/TARGET/) and the corpus earlier runs grew (.build-fuzz/corpus/TARGET/, never committed).
# libFuzzer draws a new random seed each run; --seed fixes it, so a run from the same corpus tries the same inputs in
# the same order, and --runs then makes it the same run on a faster machine (CI's gate must not turn red by chance;
# exploring is for runs by hand).
# --skip-build runs the targets as the instrumented build last left them, as CI does right after the suite (whose
# `swift test` builds every product, the fuzz targets too): each `swift build --product` plans the whole package
# again, 3 to 50 s apiece even when nothing is compiled, 120 s of CI's 200 s fuzzing step. A target not built is an
# error then, never skipped.
# Prints the executions per target. Exits 1 if any target crashed or broke an invariant, naming the input
# libFuzzer saved (.build-fuzz/artifacts/TARGET/); replay it with a plain build (Tests/Fuzz/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=.build-fuzz   # the corpora libFuzzer grows, the inputs it saves, its logs

usage() {
    echo "usage: scripts/fuzz.sh [--seconds N] [--runs N] [--seed N] [--skip-build] [TARGET...]" >&2
    echo "targets: ${all[*]}" >&2
    exit 2
}

all=()
for dir in Tests/Fuzz/Fuzz*/; do
    name=$(basename "$dir")
    [ "$name" = FuzzSupport ] || [ "$name" = FuzzDriver ] || all+=("$name")
done

seconds=()
runs=()
seed=()
build=yes
targets=()
while [ $# -gt 0 ]; do
    case $1 in
        --seconds) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; seconds=(-max_total_time="$2"); shift 2 ;;
        --runs) [[ ${2:-} =~ ^[0-9]+$ ]] || usage; runs=(-runs="$2"); shift 2 ;;
        --seed) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage; seed=(-seed="$2"); shift 2 ;;
        --skip-build) build=no; shift ;;
        -h | --help) usage ;;
        -*) usage ;;
        *)
            [[ " ${all[*]} " == *" $1 "* ]] || { echo "fuzz: no target $1" >&2; usage; }
            targets+=("$1")
            shift
            ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
# Both limits may be given: whichever comes first ends a target's run. Neither: 30 s.
limit=(${seconds[@]+"${seconds[@]}"} ${runs[@]+"${runs[@]}"})
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=30)

source scripts/lib/instrumented-build.sh
if [ "$build" = yes ]; then
    echo "== building ${targets[*]}"
    for target in "${targets[@]}"; do
        swift build "${instrumented[@]}" --product "$target" 2>&1 | grep -v "Cannot export local symbol '__asan" \
            | tail -n 1
    done
fi
bin=$(swift build "${instrumented[@]}" --show-bin-path)
for target in "${targets[@]}"; do
    if [ ! -x "$bin/$target" ]; then
        echo "fuzz: $bin/$target is not built; run scripts/test-asan.sh, or scripts/fuzz.sh without --skip-build" >&2
        exit 1
    fi
done

# A fixed seed fixes Swift's hashing too: a Dictionary's order is otherwise drawn afresh in each process.
[ ${#seed[@]} -eq 0 ] || export SWIFT_DETERMINISTIC_HASHING=1
# instrumented-build.sh has set the sanitizers' options as the suite has them: the runtimes' known leaks are not
# findings, and the Swift runtime's crash reporter would take the crash signal before libFuzzer saves the input.
# One target's run, its log in $work/logs/TARGET.log and its exit status in $work/logs/TARGET.status.
run_target() {
    local target=$1 corpus=$work/corpus/$1 artifacts=$work/artifacts/$1 log=$work/logs/$1.log
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    local options=(-timeout=10 -print_final_stats=1 -artifact_prefix="$artifacts/")
    [ -f "Tests/Fuzz/dictionaries/$target.dict" ] && options+=(-dict="Tests/Fuzz/dictionaries/$target.dict")
    local flags=Tests/Fuzz/options/$target.options   # the target's own flags, one a line; # starts a comment line
    if [ -f "$flags" ]; then
        while read -r flag; do options+=("$flag"); done < <(grep -v -e '^#' -e '^[[:space:]]*$' "$flags")
    fi
    local status=0
    "$bin/$target" "${limit[@]}" ${seed[@]+"${seed[@]}"} "${options[@]}" "$corpus" "Tests/Fuzz/corpus/$target" \
        >"$log" 2>&1 || status=$?
    echo "$status" >"$work/logs/$target.status"
}

# Targets run side by side, one a processor (each is one process on one thread): the same executions, and the same
# inputs with --seed, in less time. Each is reported, in order, once all have run.
mkdir -p "$work/logs"
parallel=$(nproc)
running=0
for target in "${targets[@]}"; do
    rm -f "$work/logs/$target.status"
    if [ "$running" -ge "$parallel" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
wait || true

failed=()
for target in "${targets[@]}"; do
    log=$work/logs/$target.log
    status=$(cat "$work/logs/$target.status" 2>/dev/null || echo "no status")
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    seconds=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
    rate=$(sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
    inputs=$(ls "$work/corpus/$target" | wc -l)
    echo "$target: ${runs:-?} executions in ${seconds:-?} s (${rate:-?} exec/s), corpus $inputs inputs"
    if [ "$status" != 0 ]; then
        input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        echo "fuzz: $target failed (exit $status); crashing input: ${input:-none saved}; log: $log" >&2
        grep -E "invariant failed|Fatal error|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY" "$log" \
            | head -n 5 >&2 || true
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
