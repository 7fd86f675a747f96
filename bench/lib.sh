# shellcheck shell=bash
# Shared by the shell benchmarks under bench/ and bench/anchors/: source it.
# Everything they need beyond the repository they install themselves, only
# what is missing, with Debian's apt-get (as root, or through sudo) and pip.

# say TEXT...: one line on standard error.
say() { printf '%s\n' "$*" >&2; }

# apt_install PACKAGE...: installs Debian packages.
apt_install() {
  local sudo=()
  if [[ $(id -u) != 0 ]]; then
    command -v sudo >/dev/null || { say "need root or sudo to install: $*"; exit 1; }
    sudo=(sudo)
  fi
  say "installing (apt): $*"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@" >/dev/null 2>&1 || {
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
    "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@" >/dev/null
  }
}

# need COMMAND PACKAGE [COMMAND PACKAGE ...]: installs the package of every
# command that is neither on the PATH nor in /usr/sbin (where nginx lives).
need() {
  local missing=()
  while (($# >= 2)); do
    command -v "$1" >/dev/null || [[ -x /usr/sbin/$1 ]] || missing+=("$2")
    shift 2
  done
  ((${#missing[@]} == 0)) || apt_install "${missing[@]}"
}

# need_python MODULE PIP_NAME [DEBIAN_PACKAGE]: makes `import MODULE` work in
# python3: pip first (into the user's Python), else the Debian package when
# one is named. Returns 1, and says so, if neither works.
need_python() {
  python3 -c "import $1" 2>/dev/null && return 0
  say "installing (pip): $2"
  python3 -m pip install -q "$2" >/dev/null 2>&1 \
    || python3 -m pip install -q --break-system-packages "$2" >/dev/null 2>&1 \
    || { [[ -n ${3:-} ]] && apt_install "$3"; } || true
  python3 -c "import $1" 2>/dev/null && return 0
  say "cannot install the Python module $1 ($2)"
  return 1
}

# median: the median of the numbers on standard input, one a line ("nan" for none).
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# machine_line: date, load, CPU model and count, for the first line of a result.
machine_line() {
  echo "$(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs"
}
