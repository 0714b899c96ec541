#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh: build the patched kernels and the test programs, boot each
# guest, run the suites listed in tests/suites and print
#   ARCH/SUITE: N passed, N failed, N skipped
# per suite and a final "total:" line.  Exits non-zero when anything
# failed, crashed, hung or did not run.
#
# Each run writes to its own directory, BUILD/runs/test-DATE-PID
# (BUILD/test-latest); kernel builds, test builds and guests hold the
# machine-wide harness lock (lib.sh), so two runs, in one checkout or in
# two, can be started together.
#
# Environment: ARCHES (default "host x86_64 arm64"; "host" runs the
# host-side suites, kind "host" in tests/suites); TREE (default: a harness
# tree made from the series committed in HEAD; set TREE=build/linux to
# test the work tree as it is); GUEST_TIMEOUT (seconds per guest);
# KERNEL_TREE and KOBJ (default: TREE and "obj"), the tree the kernels are
# built from and their object directory's name in BUILD/ARCH, for running
# the series' tests on another kernel (scripts/base61.sh); SUITES (default:
# tests/suites of the tests taken), a suites file to run instead, for a
# subset.
. "$(dirname "$0")/lib.sh"

ARCHES=${ARCHES:-host x86_64 arm64}
KOBJ=${KOBJ:-obj}
t_start=$(date +%s)
begin_run test
SUITES=${SUITES:-$TESTS/suites}
KUNIT_TOOL=$(kunit_tool)

# The suites of one arch: "SUITE KIND WHAT [ARGS...]" lines.
suites_of() {
	sed -e 's/#.*//' "$SUITES" | awk -v a="$1" '$1 == a { $1 = ""; print substr($0, 2) }'
}

# build_kselftests ARCH: install the kselftest targets that the suites of
# ARCH need into RUN/ARCH/kselftest.  The arm64 guest has no C library:
# its programs are static.
build_kselftests() {
	local arch=$1 ksft=$RUN/$1/kselftest obj=$BUILD/$1/$KOBJ targets args=()
	targets=$(suites_of "$arch" | awk '$2 == "kselftest" { print $3 }
		$2 == "ktap" { split($3, p, "/"); print p[1] }' | sort -u | tr '\n' ' ')
	[ -n "$targets" ] || return 0
	# perf_events builds the SFrame programs with gcc and with clang-22/lld-22;
	# procmap_query_32 is a static gcc -m32 program.  Not gcc-multilib:
	# it conflicts with the ARM cross compilers.
	[ "$arch" = x86_64 ] && need_pkgs clang-22 lld-22 gcc-12-multilib
	if [ "$arch" = arm64 ]; then
		# compat_callchain builds 32-bit ARM programs with gcc and clang.
		# Of the arm64 target, only its compat subtarget is built.
		need_pkgs gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf \
			libc6-dev-armhf-cross libc6-dev-arm64-cross clang lld
		args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
		      "CC=aarch64-linux-gnu-gcc -static" ARM64_SUBTARGETS=compat)
	fi
	# The objects are shared by the runs of this checkout, whatever tree
	# they test: make would keep a program built from another tree's
	# sources if they were newer (TREE=build/linux after a run of HEAD).
	if [ "$(cat "$obj/kselftest/.tree" 2>/dev/null)" != "$(realpath "$TREE")" ]; then
		rm -rf "$obj/kselftest"
		mkdir -p "$obj/kselftest"
		realpath "$TREE" > "$obj/kselftest/.tree"
	fi
	kselftest_install "$TREE" "$obj" "$ksft" "$RUN/$arch/kselftest-build.log" \
		"$targets" "${args[@]}" || die "$arch: kselftest build failed"
	# The runner's limit for each test (45 s, for hardware) stops proc's
	# read test in a TCG guest; the job sets it to the suite's limit.
	sed -i 's/^export kselftest_default_timeout=45$/export kselftest_default_timeout=${KSFT_TIMEOUT:-45}/' \
		"$ksft/kselftest/runner.sh"
	grep -q 'KSFT_TIMEOUT' "$ksft/kselftest/runner.sh" ||
		die "$arch: kselftest/runner.sh has no default timeout line to set"
}

# build_ktap32: the 32-bit ARM programs (kind ktap32) the arm64 guest runs
# for the compat paths, each built alone from its kselftest directory
# (a whole target may not build for 32-bit ARM), static, against the arm
# uapi headers.
build_ktap32() {
	local out=$RUN/arm64/kselftest32 hdr=$BUILD/arm64/arm32 what
	[ -n "$(suites_of arm64 | awk '$2 == "ktap32"')" ] || return 0
	need_pkgs gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	make -C "$TREE" -s O="$hdr" ARCH=arm headers >/dev/null || die "arm32: make headers failed"
	for what in $(suites_of arm64 | awk '$2 == "ktap32" { print $3 }'); do
		mkdir -p "$out/$(dirname "$what")"
		make -C "$TREE/tools/testing/selftests/$(dirname "$what")" -s \
			ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
			"CC=arm-linux-gnueabihf-gcc -static" \
			KHDR_INCLUDES="-isystem $hdr/usr/include" \
			OUTPUT="$out/$(dirname "$what")" "$out/$what" \
			> "$RUN/arm64/ktap32-build.log" 2>&1 ||
			{ tail -30 "$RUN/arm64/ktap32-build.log" >&2; die "arm32: $what failed to build"; }
	done
}

# build_buildid_data: what x86_64/procmap_buildid_scan reads.  The
# manifest of every ELF file under the host's /usr/lib and /usr/bin with
# the build ID binutils' readelf finds in it (the x86_64 guest's root is
# the host's, so the paths are the same there), next to the program; and
# RUN/x86_64/guest/disk.img, an ext4 image (mkfs.ext4 -d) holding a small
# program, the late-note target of bpf_stack_build_id, its target with a
# hand-written note in an 8-aligned PT_NOTE (whose ID readelf tells) and
# a large binary with their own manifest, which the guest gets as a
# virtio-blk disk.
build_buildid_data() {
	local dir=$RUN/x86_64/disk img=$RUN/x86_64/guest/disk.img
	local src=$TREE/tools/testing/selftests/bpf_stack_build_id big
	[ -n "$(suites_of x86_64 | awk '$3 == "proc/procmap_buildid_scan"')" ] || return 0
	need_pkgs binutils e2fsprogs python3
	phase buildid-manifest python3 "$TOP/scripts/buildid-manifest.py" \
		"$RUN/x86_64/kselftest/proc/procmap_buildid_scan.manifest" /usr/lib /usr/bin ||
		die "x86_64: the build-ID manifest failed"
	mkdir -p "$dir/src"
	make -C "$src" -s OUTPUT="$dir/src" KHDR_INCLUDES="-isystem $BUILD/x86_64/$KOBJ/usr/include" \
		"$dir/src/bsb_target" "$dir/src/bsb_target_late" \
		"$dir/src/bsb_target_note8" >&2 ||
		die "x86_64: bsb_target failed to build"
	big=$(realpath /usr/bin/python3)
	mkdir -p "$dir/root"
	cp "$dir/src/bsb_target" "$dir/src/bsb_target_late" \
		"$dir/src/bsb_target_note8" "$big" \
		"$RUN/x86_64/kselftest/proc/procmap_buildid_scan" "$dir/root/"
	python3 "$TOP/scripts/buildid-manifest.py" --relative-to "$dir/root" \
		"$dir/root/MANIFEST" "$dir/root"/* 2>/dev/null ||
		die "x86_64: the disk's build-ID manifest failed"
	mkdir -p "$(dirname "$img")"
	truncate -s 256M "$img"
	mkfs.ext4 -q -F -b 4096 -L buildid -d "$dir/root" "$img" >&2 ||
		die "x86_64: mkfs.ext4 failed"
	rm -rf "$dir"
}

build_tests() {
	local arch=$1
	build_kselftests "$arch"
	[ "$arch" = x86_64 ] && build_buildid_data
	[ "$arch" = arm64 ] && build_ktap32
	[ "$arch" = arm64 ] && need_pkgs gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	make -C "$TESTS" -s ARCH="$arch" O="$RUN/$arch/progs" KHDR="$BUILD/$arch/$KOBJ/usr/include" >&2 ||
		die "$arch: harness test programs failed to build"
}

# suite_limit KIND WHAT ARGS...: the time limit of one suite, in seconds:
# "timeout=N" first among its arguments in tests/suites, else the
# kselftest "timeout=N" of its directory's settings file (as
# run_kselftest.sh reads it for each test), else SUITE_TIMEOUT (300; a
# kselftest target, whose runner limits each of its tests, gets twice
# that).  The limits stay well inside the guest's, so a suite that hangs
# is stopped and reported as failed while the suites after it still run.
suite_limit() {
	local kind=$1 what=$2 n=
	case ${3:-} in timeout=[0-9]*) echo "${3#timeout=}"; return ;; esac
	case $kind in
	ktap|ktap32)
		n=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' \
			"$TREE/tools/testing/selftests/$(dirname "$what")/settings" 2>/dev/null) ;;
	kselftest) n=$(( 2 * ${SUITE_TIMEOUT:-300} )) ;;
	esac
	echo "${n:-${SUITE_TIMEOUT:-300}}"
}

# Write the guest job for ARCH; ROOT is where the kselftest installs and
# the harness programs are inside the guest (RUN/ARCH or /opt).  A
# suite stopped at its limit leaves results/SUITE.timeout (GNU timeout
# exits 124, busybox's lets the program die of SIGTERM), which
# summarize.py counts as a failure of that suite.
write_job() {
	local arch=$1 out=$2 root=$3 suite kind what args limit
	{
		echo "# generated by test.sh"
		echo "mkdir -p /run/out/results"
		echo "echo 0 > /proc/sys/kernel/perf_event_paranoid 2>/dev/null"
		# Each suite's limit is scaled by the host's load when the guest
		# was booted (LOAD_PCT, set by guest_arch) and by how much longer
		# a fixed loop takes before the suite than at the start.
		cat <<-'EOF'
		LOAD_PCT=100
		cs() { t=$(cut -d' ' -f1 /proc/uptime); echo $(( ${t%.*} * 100 + 1${t#*.} - 100 )); }
		cal() { c0=$(cs); i=0; while [ $i -lt 4000 ]; do i=$((i + 1)); done; echo $(( $(cs) - c0 + 1 )); }
		cal0=$(cal)
		scaled() { c=$(cal); [ $c -lt $cal0 ] && c=$cal0; p=$((LOAD_PCT * c / cal0)); [ $p -gt 400 ] && p=400; echo $(( $1 * p / 100 )); }
		echo "job: loop ${cal0}0 ms, host load ${LOAD_PCT}%"
		EOF
		# guest.sh attaches OUTDIR/disk.img as /dev/vda.
		if [ -f "$out/disk.img" ]; then
			echo "mkdir -p /run/ext4 && mount -t ext4 /dev/vda /run/ext4 ||"
			echo "	echo 'job: cannot mount /dev/vda on /run/ext4'"
		fi
		suites_of "$arch" | while read -r suite kind what args; do
			limit=$(suite_limit "$kind" "$what" $args)
			case $args in timeout=*) args=$(echo "$args" | cut -s -d' ' -f2-) ;; esac
			case $kind in
			kunit) continue ;;
			esac
			echo "l=\$(scaled $limit); echo '== $suite: limit '\$l' s'"
			limit='$l'
			case $kind in
			kselftest)
				echo "echo '== kselftest $what'"
				# each test's limit is the suite's (build_kselftests)
				echo "(cd $root/kselftest && KSFT_TIMEOUT=$limit timeout $limit ./run_kselftest.sh -c $what) > /run/out/results/$suite.tap 2>&1" ;;
			ktap|ktap32)
				local k=$root/kselftest
				[ $kind = ktap32 ] && k=$root/kselftest32
				echo "echo '== $what'"
				echo "(cd $k/$(dirname "$what") && timeout $limit ./$(basename "$what") $args) > /run/out/results/$suite.tap 2>&1" ;;
			prog)
				echo "echo '== $what'"
				echo "timeout $limit $root/progs/$what $args > /run/out/results/$suite.tap 2>&1" ;;
			*) die "tests/suites: unknown kind $kind" ;;
			esac
			echo "case \$? in 124|137|143) echo \$l > /run/out/results/$suite.timeout; echo \"== $suite: stopped after \$l s\" ;; esac"
		done
		[ -f "$out/disk.img" ] && echo "umount /run/ext4"
		echo "cat /run/out/results/*.tap"
		echo "exit 0"
	} > "$out/job.sh"
}

# prepare_arch ARCH, holding the lock: the tree (when the harness makes
# it), the kernel, the test programs; the kernel image, the programs and
# the guest job end up in RUN/ARCH, so nothing of this run is left in the
# places the next run of this checkout rebuilds.
prepare_arch() {
	local arch=$1 obj=$BUILD/$1/$KOBJ dst=$RUN/$1
	mkdir -p "$dst/guest"
	[ -n "${HARNESS_TREE:-}" ] && { phase tree use_tree || return 1; }
	TREE=$(realpath "$TREE")
	phase "build-$arch" "$TOP/scripts/build.sh" "$arch" "${KERNEL_TREE:-$TREE}" "$obj" || return 1
	cp "$obj/$(arch_kernel_image "$arch")" "$dst/kernel"
	phase "tests-$arch" build_tests "$arch" || return 1
	if [ "$arch" = x86_64 ]; then
		write_job "$arch" "$dst/guest" "$dst"
	else
		write_job "$arch" "$dst/guest" /opt
	fi
}

# guest_arch ARCH, holding the lock: boot RUN/ARCH/kernel and run the job.
guest_arch() {
	local arch=$1 dst=$RUN/$1 r d pct rc=0
	if [ "$arch" = arm64 ]; then
		"$TOP/scripts/arm64-rootfs.sh"
		r=$BUILD/arm64/rootfs/opt
		rm -rf "$r/kselftest" "$r/kselftest32" "$r/progs"
		for d in "$dst/kselftest" "$dst/kselftest32" "$dst/progs"; do
			[ -d "$d" ] && cp -a "$d" "$r/"
		done
	fi
	pct=$(load_pct)
	sed -i "s/^LOAD_PCT=.*/LOAD_PCT=$pct/" "$dst/guest/job.sh"
	log "$arch: host load $pct%: the guest's and its suites' limits are scaled by it"
	"$TOP/scripts/guest.sh" "$arch" "$dst/kernel" "$dst/guest" \
		$(( ${GUEST_TIMEOUT:-1800} * pct / 100 )) || rc=$?
	rm -f "$dst/guest/disk.img"
	return $rc
}

run_arch() {
	local arch=$1 rc=0
	phase "prepare-$arch" locked prepare_arch "$arch" || return 1
	phase "guest-$arch" locked guest_arch "$arch" || rc=$?
	return $rc
}

# report_check ARCH GUEST_RC: the kernel-report check must see a report
# the kernel printed, and only that.  The suite harness/report_words
# printed report words in its own output (on the console without a
# printk time stamp), and the run above did not fail on them; a second
# boot of the same kernel provokes a real WARN_ON (lkdtm) and must fail
# with guest.sh's status 2.
report_check() {
	local arch=$1 guest_rc=$2 dst=$RUN/$1 out=$RUN/$1/report-check p=0 f=0 rc=0
	if grep -q '^# WARNING: report_words' "$dst/guest/console.log" 2>/dev/null &&
	   [ "$guest_rc" -ne 2 ]; then
		p=$((p + 1))
	else
		f=$((f + 1))
		log "$arch: report_check: the job's own report words are missing or failed the run (guest rc $guest_rc)"
	fi
	mkdir -p "$out"
	cat > "$out/job.sh" <<-'EOF'
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT
	exit 0
	EOF
	locked "$TOP/scripts/guest.sh" "$arch" "$dst/kernel" "$out" \
		$(( 120 * $(load_pct) / 100 )) 2>"$out/guest.err" || rc=$?
	if [ $rc -eq 2 ] && grep -Eq '\] WARNING: .*lkdtm' "$out/console.log"; then
		p=$((p + 1))
	else
		f=$((f + 1))
		log "$arch: report_check: a WARN_ON from lkdtm gave guest.sh status $rc, not 2 (see $out)"
	fi
	echo "$arch/report_check: $p passed, $f failed, 0 skipped"
}

# run_host, holding the lock: the host-side suites.  WHAT is a script
# under host/, run once with KSRC=TREE and the output directory RUN/host; it writes
# results/SUITE.tap there (KTAP) for each of its suites.
run_host() {
	local what name log out=$RUN/host
	# host-test.sh builds bpftool and perf (flex, bison, libelf, zlib) and
	# compares with libsframe (binutils-dev) and llvm-readobj-22; lib/ehabi's
	# compares with the ARM binutils' readelf and steps 32-bit ARM programs
	# under qemu-arm with gdb-multiarch.
	need_build_deps x86_64
	need_pkgs gcc binutils-dev clang-22 lld-22 llvm-22 libclang-rt-22-dev \
		zlib1g-dev pkg-config gcc-arm-linux-gnueabihf \
		g++-arm-linux-gnueabihf libc6-dev-armhf-cross clang qemu-user \
		gdb-multiarch
	[ -n "${HARNESS_TREE:-}" ] && { phase tree use_tree || return 1; }
	mkdir -p "$out/results"
	for what in $(suites_of host | awk '$2 != "host" { print "bad:" $1 } $2 == "host" { print $3 }' | sort -u); do
		case $what in bad:*) die "tests/suites: ${what#bad:}: host suites must be of kind host" ;; esac
		name=$(dirname "$what")-$(basename "$what" .sh)
		log=$out/$name.log
		phase "host-$name" to_file "$log" env KSRC="$(realpath "$TREE")" bash "$HOSTTESTS/$what" "$out" ||
			{ tail -20 "$log" >&2; log "host: $what failed (log: $log)"; }
	done
}

to_file() {
	local f=$1
	shift
	"$@" > "$f" 2>&1
}

status=0
summary=$RUN/summary.txt
: > "$summary"
for arch in $ARCHES; do
	rc=0
	if [ "$arch" = host ]; then
		locked run_host || status=1
		mkdir -p "$RUN/host"
		python3 "$TOP/scripts/summarize.py" --arch host --out "$RUN/host" \
			--kunit-tool "$KUNIT_TOOL" --suites "$SUITES" >> "$summary" || status=1
		continue
	fi
	run_arch "$arch" || rc=$?
	if [ -f "$RUN/$arch/guest/console.log" ]; then
		python3 "$TOP/scripts/summarize.py" --arch "$arch" --out "$RUN/$arch/guest" \
			--kunit-tool "$KUNIT_TOOL" --suites "$SUITES" >> "$summary" || status=1
		phase "report-check-$arch" report_check "$arch" "$rc" >> "$summary"
	else
		echo "$arch/harness: 0 passed, 1 failed, 0 skipped  (no guest run)" >> "$summary"
	fi
	if [ $rc -ne 0 ]; then
		status=1
		case $rc in
		2) echo "$arch/kernel-reports: 0 passed, 1 failed, 0 skipped  (see $RUN/$arch/guest/console.log)" >> "$summary" ;;
		3) echo "$arch/guest: 0 passed, 1 failed, 0 skipped  (hung or crashed; see $RUN/$arch/guest/console.log)" >> "$summary" ;;
		esac
	fi
done

echo
echo "phase times (s):"
sed 's/^/  /' "$PHASES"
echo "  all $(( $(date +%s) - t_start ))"
echo
echo "output: $RUN"
cat "$summary"
read -r p f s < <(cat "$summary" | sed -n 's/^[^:]*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped.*/\1 \2 \3/p' |
	awk '{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }')
echo "total: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ] && [ $status -eq 0 ] && [ "$p" -gt 0 ]
