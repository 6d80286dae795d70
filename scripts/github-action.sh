#!/usr/bin/env bash
# github-action.sh — the step action.yml runs: `pinctl check` once, as GitHub Actions wants it. The text log goes to
# the job's output with `::error` annotations (pinctl prints them when GITHUB_ACTIONS=true), the report file (SARIF by
# default, for code scanning) to $RUNNER_TEMP, a Markdown table of apps × targets to $GITHUB_STEP_SUMMARY, and the
# report's path and pinctl's exit code to $GITHUB_OUTPUT (outputs `report`, `exit-code`).
#
# Inputs come from the environment, as action.yml passes them (never spliced into a script):
#   INPUT_CONFIG    the policy file (default pinctl.yaml)
#   INPUT_TARGETS   targets to check, separated by spaces or lines; empty: the policy file's targets
#   INPUT_FORMAT    the report file's format: sarif (default), junit or json
#   INPUT_ARGS      more arguments for pinctl check, split as a shell would split them (quotes kept together,
#                   nothing expanded)
#   INPUT_FAIL_ON   when the step fails: rejected (default: an app rejects a chain, or the input is wrong), error
#                   (also when a server cannot be reached), input (only when the input is wrong), never
#   INPUT_PINCTL    the pinctl executable (default pinctl, on PATH)
# Exit: 0, or pinctl's exit code when INPUT_FAIL_ON says it fails the step; 2 when an input is wrong.
set -euo pipefail

# What the script itself refuses, on stderr, made safe for the runner by pinctl's own rule for what it prints
# (Sources/PinctlCLI/Output/CI/RunnerCommands.swift, which Terminal.safe applies): the runner takes `##[` anywhere in
# a line, skipping Unicode's ignorable characters between its three, and `::` first in a line after white space, as
# a workflow command. bash cannot tell the ignorable characters, so the rule is applied a little wider here: every
# `#` is spelled `\x23`, as Terminal.safe spells the one it must, and every control character (line breaks included)
# is a space, so the message is one line that begins with `pinctl action:`.
runner_safe() {
    local text=${1//[[:cntrl:]]/ }
    printf '%s' "${text//'#'/'\x23'}"
}
fail() {
    printf 'pinctl action: %s\n' "$(runner_safe "$*")" >&2
    exit 2
}

config=${INPUT_CONFIG:-pinctl.yaml}
format=${INPUT_FORMAT:-sarif}
fail_on=${INPUT_FAIL_ON:-rejected}
pinctl=${INPUT_PINCTL:-pinctl}
case $format in sarif | junit | json) ;; *) fail "format: '$format' is not sarif, junit or json" ;; esac
case $fail_on in
    rejected | error | input | never) ;;
    *) fail "fail-on: '$fail_on' is not rejected, error, input or never" ;;
esac
for variable in RUNNER_TEMP GITHUB_OUTPUT GITHUB_STEP_SUMMARY; do
    [ -n "${!variable:-}" ] || fail "$variable is not set: this script runs as a step of GitHub Actions"
done
command -v "$pinctl" >/dev/null 2>&1 \
    || fail "pinctl: '$pinctl' not found; install pinctl before this step (apt-get install ./pinctl_*.deb)"
[ -f "$config" ] || fail "config: '$config' is not a file (paths are from the workspace, $PWD)"

# xargs splits like a shell (quotes, backslashes) and expands nothing; an unmatched quote is an error.
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
split() {
    local -n into=$1
    into=()
    printf '%s' "$2" | xargs -r printf '%s\0' >"$work/split" 2>"$work/split.err" \
        || fail "$3: cannot split '$2': $(cat "$work/split.err")"
    mapfile -d '' into <"$work/split"
}
split targets "${INPUT_TARGETS:-}" targets
split extra "${INPUT_ARGS:-}" args

report="$RUNNER_TEMP/pinctl-report.$format"
rm -f -- "$report"
status=0
GITHUB_ACTIONS=true "$pinctl" check --config "$config" "--$format-file" "$report" \
    --summary-file "$GITHUB_STEP_SUMMARY" "${targets[@]}" "${extra[@]}" || status=$?

{
    echo "report=$report"
    echo "exit-code=$status"
} >>"$GITHUB_OUTPUT"

case $fail_on in
    rejected) [[ $status == 1 || $status == 2 ]] && exit "$status" ;;
    error) [[ $status != 0 ]] && exit "$status" ;;
    input) [[ $status == 2 ]] && exit "$status" ;;
    never) ;;
esac
exit 0
