#!/bin/sh
# Runs one install step (Node from the npm registry, `npm ci`, code-server, apt-get) so that a
# stalled download cannot hang a run and the person is never left before a silent terminal:
#  - bounded: each try is stopped at its timeout (coreutils `timeout`: TERM to the step's whole
#    process group, then KILL 10 s later, since npm waiting on a stalled download ignores TERM),
#    so a download that stops mid-way costs minutes, not the run;
#  - retried: up to N tries, waiting 10 s, 20 s, ... between them, after removing what the failed
#    try left half-installed (--clean), since npm and tar do not resume a broken extraction;
#  - said: a line when it starts, a line every 20 s while it runs (time so far, MB in the folder
#    being filled (--watch) and how much that grew, so a stall shows; while nothing grows, the
#    step's latest line), and a line with the time it took.
# The step's own output goes to its log (--log, or a temporary file removed after success). When
# every try failed: which step, why the last try ended, the end of the log and what to do (--hint).
#
#   sh scripts/installStep.sh --what "code-server 4.139.1" [--detail "about 600 MB, first use only"] \
#      --timeout 600 [--tries 3] [--watch DIR] [--clean PATH]... [--log FILE] [--hint TEXT] \
#      -- COMMAND ARG...
# (--what names the step in every line; --detail is said once, when it starts.)
#
# The environment overrides every step's defaults (a slow network, or the tests):
# LORE_INSTALL_TIMEOUT (seconds a try may take), LORE_INSTALL_TRIES, LORE_INSTALL_HEARTBEAT
# (seconds between progress lines), LORE_INSTALL_BACKOFF (seconds before the second try; doubles).
# npm's own per-request fetch timeout and retries are set for the step unless already set: they
# retry a request that gets no answer, while the timeout here also ends a transfer that stalls
# after its first bytes (npm's fetch timeout stops counting once the answer starts).
# Exits with the last try's status (124 or 137 when it timed out).
set -eu

say() { echo "lore: $*" >&2; }

what="" detail="" timeout=600 tries=3 watch="" clean="" log="" hint=""
while [ $# -gt 0 ]; do
  case "$1" in
    --what) what=$2; shift 2 ;;
    --detail) detail=" ($2)"; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --tries) tries=$2; shift 2 ;;
    --watch) watch=$2; shift 2 ;;
    # One path a line, so paths with spaces survive.
    --clean) clean="$clean$2
"; shift 2 ;;
    --log) log=$2; shift 2 ;;
    --hint) hint=$2; shift 2 ;;
    --) shift; break ;;
    *) say "installStep.sh: unknown option $1"; exit 2 ;;
  esac
done
[ $# -gt 0 ] && [ -n "$what" ] || { say "usage: installStep.sh --what TEXT [options] -- COMMAND ARG..."; exit 2; }
timeout=${LORE_INSTALL_TIMEOUT:-$timeout}
tries=${LORE_INSTALL_TRIES:-$tries}
heartbeat=${LORE_INSTALL_HEARTBEAT:-20}
backoff=${LORE_INSTALL_BACKOFF:-10}
: "${npm_config_fetch_timeout:=120000}" "${npm_config_fetch_retries:=4}"
export npm_config_fetch_timeout npm_config_fetch_retries

own_log=""
if [ -z "$log" ]; then
  log=$(mktemp "${TMPDIR:-/tmp}/lore-install.XXXXXX")
  own_log=1
else
  mkdir -p "$(dirname "$log")"
fi

# "45 s", "3 min 05 s"
duration() {
  if [ "$1" -lt 60 ]; then echo "$1 s"; else printf '%d min %02d s\n' $(($1 / 60)) $(($1 % 60)); fi
}
size_mb() {
  if [ -n "$watch" ] && [ -e "$watch" ]; then du -sm --apparent-size "$watch" 2>/dev/null | cut -f1; else echo 0; fi
}
remove_half_installed() {
  printf '%s' "$clean" | while IFS= read -r p; do [ -n "$p" ] && rm -rf "$p"; done
  return 0
}

pid=""
# Ctrl-C (or the run above being stopped) stops the step too: `timeout` runs it in a process
# group of its own, which the terminal's signal does not reach, and passes our TERM on to it.
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; say "stopped while installing $what"; exit 130' INT TERM HUP

say "installing $what$detail ..."
started=$(date +%s)
try=1
while :; do
  [ "$try" -gt 1 ] && echo "--- try $try of $tries ---" >>"$log"
  timeout -k 10 "$timeout" "$@" >>"$log" 2>&1 </dev/null &
  pid=$!
  try_started=$(date +%s)
  next=$((try_started + heartbeat))
  last_mb=$(size_mb)
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.5
    now=$(date +%s)
    if [ "$now" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
      next=$((now + heartbeat))
      mb=$(size_mb)
      progress="$(duration $((now - started))) so far"
      grew=$((mb - last_mb))
      [ "$grew" -ge 0 ] && grew="+$grew"
      [ -n "$watch" ] && progress="$progress, $mb MB on disk ($grew MB)"
      # While nothing grows (a build, a slow answer), the step's latest line says what it is at.
      if [ "$mb" = "$last_mb" ]; then
        # A line that starts with a word ("npm http fetch", "  CXX(target) ..."), not a compiler's quote of the source.
        latest=$(tail -n 50 "$log" | tr -d '\r' | grep -E '^ *[[:alpha:]][[:alpha:]()_:-]* ' | tail -n 1 | cut -c1-80)
        [ -n "$latest" ] && progress="$progress; latest: $latest"
      fi
      last_mb=$mb
      say "  still installing $what: $progress"
    fi
  done
  if wait "$pid"; then status=0; else status=$?; fi
  pid=""
  took=$(($(date +%s) - started))
  if [ "$status" = 0 ]; then
    say "installed $what in $(duration "$took")"
    [ -n "$own_log" ] && rm -f "$log"
    exit 0
  fi
  case "$status" in
    124 | 137) why="it did not finish within $(duration "$timeout") (a stalled download, or a slow connection)" ;;
    *) why="it failed (exit status $status)" ;;
  esac
  if [ "$try" -ge "$tries" ]; then break; fi
  say "  try $try of $tries: $why; trying again in $backoff s"
  remove_half_installed
  sleep "$backoff"
  backoff=$((backoff * 2))
  try=$((try + 1))
done

if [ "$tries" = 1 ]; then n_tries="1 try"; else n_tries="$tries tries"; fi
say "installing $what failed after $n_tries ($(duration "$took")); the last try: $why. The end of its log ($log):"
tail -n 30 "$log" | sed 's/^/    /' >&2
say "${hint:-check that this machine reaches the npm registry (npm ping), then run the same command again; LORE_INSTALL_TIMEOUT=SECONDS gives each try longer}"
exit "$status"
