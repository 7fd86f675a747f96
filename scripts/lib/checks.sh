# Shared by the check scripts (scripts/check-*, scripts/deploy-standin, scripts/docker-standin):
# source it after setting NAME, the prefix of every line written.

# log TEXT...: one line on standard error.
log() { printf '%s: %s\n' "$NAME" "$*" >&2; }

# check DESCRIPTION COMMAND...: runs the command, says ok or FAILED, and
# remembers a failure in $fail.
fail=0
check() {
  local what=$1; shift
  if "$@"; then log "ok: $what"; else log "FAILED: $what"; fail=1; fi
}

# wait_for_url URL: until it answers 2xx, at most 5 s.
wait_for_url() {
  for _ in $(seq 100); do
    curl -fs -o /dev/null "$1" && return 0
    sleep 0.05
  done
  log "no answer from $1"
  return 1
}

# header NAME FILE: the last value of a header in `curl -D` output.
header() {
  tr -d '\r' <"$2" | awk -v name="$(printf '%s' "$1" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1) == name {print $2}' | tail -1
}
