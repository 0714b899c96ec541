# SPDX-License-Identifier: GPL-2.0
# Common settings for the harness scripts.  Sourced, not executed.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
PATCHES=${PATCHES:-$TOP/patches}
CONFIGS=${CONFIGS:-$TOP/configs}
TESTS=${TESTS:-$TOP/tests}
# The host-side tests of lib/sframe and lib/ehabi: user-space builds of
# the tree's own sources (KSRC=TREE), kept here, not in the series.
HOSTTESTS=${HOSTTESTS:-$TOP/host}

# The base: Debian 12's linux-source-6.1, pinned.
BASE_PKG=linux-source-6.1
BASE_VERSION=${BASE_VERSION:-6.1.192-2}
BASE_TARBALL=/usr/src/linux-source-6.1.tar.xz

# Fixed identity and dates so that the base commit, the kernel build and
# the exported series are the same on every machine and every run.
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-$(git config user.name 2>/dev/null || echo harness)}"
export GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-$(git config user.email 2>/dev/null || echo harness@localhost)}"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME"
export GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC"
export KBUILD_BUILD_USER=harness
export KBUILD_BUILD_HOST=harness
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

JOBS=${JOBS:-$(nproc)}

log()  { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }

# start_run KIND: give this invocation its own output directory,
# RUN=BUILD/runs/KIND-DATE-PID (BUILD/KIND-latest points at it), where
# its phase times, summary, test programs, kernel images and guest
# output go, so that two runs never write to the same place.  The runs
# of a kind beyond the newest five are removed, unless still running.
start_run() {
	local kind=$1 d
	mkdir -p "$BUILD/runs"
	RUN=$BUILD/runs/$kind-$(date +%Y%m%d-%H%M%S)-$$
	mkdir -p "$RUN"
	echo $$ > "$RUN/pid"
	ln -sfn "runs/$(basename "$RUN")" "$BUILD/$kind-latest"
	PHASES=$RUN/phases.txt
	: > "$PHASES"
	export RUN PHASES
	for d in $(ls -1d "$BUILD/runs/$kind"-* 2>/dev/null | sort -r | tail -n +6); do
		kill -0 "$(cat "$d/pid" 2>/dev/null || echo 0)" 2>/dev/null || rm -rf "$d"
	done
	log "$kind: output in $RUN"
}

# begin_run KIND: start_run, and unless TREE names a tree to test, take
# the series, configs and tests committed in HEAD (use_head) for the
# harness tree use_tree makes.
begin_run() {
	start_run "$1"
	if [ -z "${TREE:-}" ]; then
		use_head
		PATCHES_SNAPSHOT=$PATCHES
		HARNESS_TREE=1
	fi
}

# phase NAME CMD...: run a command and print how long it took.
phase() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	log "phase $name: start"
	"$@" || rc=$?
	log "phase $name: $(( $(date +%s) - t0 ))s (rc=$rc)"
	echo "$name $(( $(date +%s) - t0 ))" >> "${PHASES:-/dev/null}"
	return $rc
}

# locked CMD...: run CMD (a program or a shell function) holding the
# machine-wide harness lock, so that kernel builds and guests of any
# checkout on this machine never overlap (two cores), and what a build
# shares within a checkout (the harness tree, object directories, the
# arm64 root) is used by one run at a time.  Nested calls run at once.
HARNESS_LOCK=${HARNESS_LOCK:-/run/lock/linux-profiling-harness.lock}
[ -w "$(dirname "$HARNESS_LOCK")" ] || HARNESS_LOCK=/tmp/linux-profiling-harness.lock
locked() {
	if [ -n "${HARNESS_LOCK_HELD:-}" ]; then
		"$@"
		return
	fi
	(
		exec 9>>"$HARNESS_LOCK"
		if ! flock -n 9; then
			log "waiting for the harness lock ($HARNESS_LOCK: another build or guest)"
			flock 9
		fi
		export HARNESS_LOCK_HELD=1
		"$@"
	)
}

# checkout_lock NAME: hold BUILD/NAME.lock until the script ends, for a
# command that keeps state of its own in this checkout's build/ (the tree
# of make check, the tree of make bisect-check).
checkout_lock() {
	mkdir -p "$BUILD"
	exec 8>>"$BUILD/$1.lock"
	if ! flock -n 8; then
		log "waiting for the other $1 in this checkout"
		flock 8
	fi
}

# apt-get update when the package lists are older than a day (a stale
# list names versions the archive no longer has), or with --force (after
# an install failed); the stamp is the time of the last update.
apt_fresh() {
	local stamp=/var/lib/apt/lists/.linux-profiling-updated
	if [ "${1:-}" != --force ] && [ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		return 0
	fi
	apt-get update -qq -o DPkg::Lock::Timeout=600 >&2 && touch "$stamp"
}

# Packages every command may need; need_pkgs installs only what is missing.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages (run as root or install): ${missing[*]}"
	log "installing: ${missing[*]}"
	apt_fresh
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >&2 ||
		{ apt_fresh --force &&
		  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			-o DPkg::Lock::Timeout=600 --no-install-recommends "${missing[@]}" >&2; } ||
		die "apt-get install failed for: ${missing[*]}"
}

# debian_config_xz ARCH: the path of Debian's kernel configuration of
# ARCH (amd64 or arm64) from linux-config-6.1: the host's package for
# amd64, arm64's unpacked into BUILD/cross/linux-config-arm64 (again
# after a day, so that an update of the package is seen)
debian_config_xz() {
	local d=$BUILD/cross/linux-config-arm64 f
	case $1 in
	amd64)
		need_pkgs linux-config-6.1
		f=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz ;;
	arm64)
		f=$d/usr/src/linux-config-6.1/config.arm64_none_arm64.xz
		if [ ! -f "$f" ] || [ -z "$(find "$d/.fetched" -mmin -1440 2>/dev/null)" ]; then
			rm -rf "$d"
			foreign_deb arm64 linux-config-6.1 "$d"
			touch "$d/.fetched"
		fi ;;
	*) die "debian_config_xz: no configuration of $1" ;;
	esac
	[ -f "$f" ] || die "no $f"
	echo "$f"
}

# kselftest_install TREE OBJ DEST LOG TARGETS [MAKE-ARG...]: build the
# kselftest TARGETS of TREE in OBJ and install them into DEST, the make
# output in LOG (its end on stderr if the build fails)
kselftest_install() {
	local tree=$1 obj=$2 dest=$3 out=$4 targets=$5
	shift 5
	make -C "$tree/tools/testing/selftests" -s -j"$JOBS" "$@" O="$obj" \
		TARGETS="$targets" KSFT_INSTALL_PATH="$dest" install > "$out" 2>&1 ||
		{ tail -n 30 "$out" >&2; return 1; }
}

# foreign_deb ARCH PKG DIR: unpack Debian's package PKG of architecture
# ARCH into DIR, with package lists of our own for that architecture
# only (BUILD/apt-ARCH): the host's dpkg architectures and apt lists stay
# as they are.
foreign_deb() {
	local arch=$1 pkg=$2 dir=$3 apt_dir=$BUILD/apt-$1 tmp apt_opts
	apt_opts=(-o "APT::Architectures::=$arch" -o "Dir::State::Lists=$apt_dir/lists"
		  -o "Dir::Cache=$apt_dir/cache")
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
	if [ -z "$(find "$apt_dir/lists" -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
		apt-get "${apt_opts[@]}" update -qq >&2 ||
			die "cannot read the $arch package lists"
	fi
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get "${apt_opts[@]}" download -q "$pkg:$arch" >/dev/null 2>&1) ||
		{ rm -rf "$tmp"; die "cannot download $pkg:$arch"; }
	mkdir -p "$dir"
	dpkg-deb -x "$tmp"/*.deb "$dir"
	rm -rf "$tmp"
}

# Install the pinned base package; fall back loudly to the newest 6.1.
need_base() {
	local have
	have=$(dpkg-query -W -f='${Version}' $BASE_PKG 2>/dev/null || true)
	[ "$have" = "$BASE_VERSION" ] && [ -f $BASE_TARBALL ] && return 0
	[ "$(id -u)" -eq 0 ] || die "$BASE_PKG $BASE_VERSION is not installed"
	apt_fresh
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades -o DPkg::Lock::Timeout=600 \
		"$BASE_PKG=$BASE_VERSION" >&2; then
		log "#############################################################"
		log "WARNING: $BASE_PKG $BASE_VERSION is no longer in the archive."
		log "WARNING: using the newest $BASE_PKG instead; the series must"
		log "WARNING: prove itself by applying and passing the tests."
		log "#############################################################"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 $BASE_PKG >&2 ||
			die "cannot install $BASE_PKG"
	fi
}

# The kernel build dependencies for one architecture.
need_build_deps() {
	local pkgs=(make gcc flex bison bc libelf-dev libssl-dev cpio xz-utils
		    ccache python3 rsync git)
	case ${1:-x86_64} in
	arm64) pkgs+=(gcc-aarch64-linux-gnu) ;;
	esac
	need_pkgs "${pkgs[@]}"
}

# use_head: take patches/, configs/, tests/ and host/ as committed in HEAD (what
# make test and make demo check), not as they are on disk, in the run's
# own directory.
use_head() {
	local snap=${RUN:?}/head
	rm -rf "$snap"
	mkdir -p "$snap"
	git -C "$TOP" archive HEAD patches configs tests host | tar -x -C "$snap" ||
		die "cannot read patches/, configs/, tests/ and host/ from HEAD"
	if [ -n "$(git -C "$TOP" status --porcelain -- patches configs tests host)" ]; then
		log "note: patches/, configs/, tests/ or host/ have uncommitted changes; using HEAD's"
	fi
	export PATCHES=$snap/patches CONFIGS=$snap/configs TESTS=$snap/tests HOSTTESTS=$snap/host
}

# The series: every numbered patch except the cover letter, in order.
series() {
	local f
	for f in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || continue
		case $(basename "$f") in 0000-*) continue ;; esac
		echo "$f"
	done
}

# patch ids of a list of patch files / of the commits after the base.
patch_ids_of_files() {
	local f
	for f in "$@"; do git patch-id --stable < "$f" | cut -d' ' -f1; done
}
patch_ids_of_tree() {
	local dir=$1 c
	for c in $(git -C "$dir" rev-list --reverse "$(base_commit "$dir")..HEAD"); do
		git -C "$dir" show "$c" | git patch-id --stable | cut -d' ' -f1
	done
}
base_commit() {
	git -C "$1" rev-list --max-parents=0 HEAD | tail -n 1
}

arch_kernel_image() {
	case $1 in
	x86_64) echo arch/x86/boot/bzImage ;;
	arm64)  echo arch/arm64/boot/Image ;;
	esac
}

# kmake ARCH SRC OBJ ARGS...: make in a kernel tree for one architecture.
kmake() {
	local arch=$1 src=$2 obj=$3
	shift 3
	case $arch in
	x86_64)
		make -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" \
			HOSTCC="ccache gcc" -j"$JOBS" "$@" ;;
	arm64)
		make -C "$src" O="$obj" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
			CC="ccache aarch64-linux-gnu-gcc" HOSTCC="ccache gcc" \
			-j"$JOBS" "$@" ;;
	*) die "unknown arch $arch" ;;
	esac
}

# use_tree: unless TREE names a tree, make one from the series committed in
# HEAD (build/test/linux, shared by the runs of this checkout: call it
# holding the lock, and again before each use, as another run may have
# reset it meanwhile); sets TREE to an absolute path.
use_tree() {
	if [ -z "${TREE:-}" ] || [ -n "${HARNESS_TREE:-}" ]; then
		[ -n "${PATCHES_SNAPSHOT:-}" ] || { use_head; PATCHES_SNAPSHOT=$PATCHES; }
		TREE=$BUILD/test/linux
		HARNESS_TREE=1
		# a die in tree.sh would not stop a caller that runs this
		# under "||" (phase), where set -e does not hold
		PATCHES=$PATCHES_SNAPSHOT "$TOP/scripts/tree.sh" --reset "$TREE" >&2 ||
			die "the series of HEAD does not apply to a fresh base"
	fi
	TREE=$(realpath "$TREE")
}

# build_x86_kernel: the x86_64 kernel of use_tree's tree, in
# BUILD/x86_64/obj; sets TREE and OBJ.  Call it holding the lock.
build_x86_kernel() {
	use_tree
	OBJ=$BUILD/x86_64/obj
	"$TOP/scripts/build.sh" x86_64 "$TREE" "$OBJ" >&2
}

# kunit_tool: print the directory of the KUnit tool (kunit_parser.py) the
# harness parses results with: the pinned base's, with the patches of the
# series committed in HEAD that change it.  It does not depend on the tree
# under test, which may be older than the parser's fixes.
kunit_tool() {
	local key dir f
	key=$(cd "${PATCHES_SNAPSHOT:-$PATCHES}" && grep -l '^+++ b/tools/testing/kunit/' [0-9]*.patch |
		xargs -r cat | sha1sum | cut -c1-12)
	dir=$BUILD/kunit-tool/$BASE_VERSION-$key
	if [ ! -f "$dir/kunit_parser.py" ]; then
		need_base
		rm -rf "$dir.tmp.$$"
		mkdir -p "$dir.tmp.$$"
		tar -xJf "$BASE_TARBALL" -C "$dir.tmp.$$" --strip-components=1 \
			--wildcards '*/tools/testing/kunit/*.py' ||
			die "cannot extract the KUnit tool from $BASE_TARBALL"
		for f in $(cd "${PATCHES_SNAPSHOT:-$PATCHES}" &&
			   grep -l '^+++ b/tools/testing/kunit/' [0-9]*.patch); do
			# outside any repository (build/ may be inside the checkout's)
			(cd "$dir.tmp.$$" && GIT_CEILING_DIRECTORIES=$(dirname "$PWD") \
				git apply --include='tools/testing/kunit/*' \
				"${PATCHES_SNAPSHOT:-$PATCHES}/$f") ||
				die "$f does not apply to the KUnit tool"
		done
		rm -rf "$dir"
		mv "$dir.tmp.$$/tools/testing/kunit" "$dir"
		rm -rf "$dir.tmp.$$"
	fi
	echo "$dir"
}

# load_pct: how much longer than its own CPU time a CPU-bound loop takes
# now, in percent: 100 on a host with a core free for it, about 150 when
# three busy jobs share 2 cores.  The wall-clock limits of guests and
# suites are scaled by it (test.sh), so that a loaded host stretches them
# instead of failing suites that are only slow; a hang still fails.  At
# least 100, at most 400.
load_pct() {
	local t r u s cpu pct
	t=$( { TIMEFORMAT='%3R %3U %3S'
	       time { i=0; while ((i < 300000)); do ((i++)); done; }; } 2>&1 )
	read -r r u s <<< "$t"
	r=${r/./} u=${u/./} s=${s/./}
	cpu=$((10#$u + 10#$s))
	[ "$cpu" -gt 0 ] || cpu=1
	pct=$((10#$r * 100 / cpu))
	[ $pct -lt 100 ] && pct=100
	[ $pct -gt 400 ] && pct=400
	echo $pct
}
