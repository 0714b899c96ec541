#!/usr/bin/env bash
# bisect.sh WORKTREE BASE [ARCH...]: build the kernel (the test
# configuration, LAX_CONFIG=1) at every commit of WORKTREE after BASE,
# for each ARCH (default x86_64); prints "ok"/"FAIL", the commit and its
# subject, and the warnings of the files the series changes.
# CONFIGS: the configuration fragments of the cut's names.
set -u
wt=$1 base=$2; shift 2
arches=${*:-x86_64}
top=$(cd "$(dirname "$0")/../../.." && pwd)
head=$(git -C "$wt" symbolic-ref --short HEAD 2>/dev/null || git -C "$wt" rev-parse HEAD)
for c in $(git -C "$wt" rev-list --reverse "$base..$head"); do
	git -C "$wt" checkout -q "$c"
	s=$(git -C "$wt" log -1 --format=%s "$c")
	for a in $arches; do
		log=/tmp/cut-bisect-$a.log
		if LAX_CONFIG=1 "$top/scripts/build.sh" "$a" "$wt" "/tmp/cut-obj-$a" >"$log" 2>&1; then
			r=ok
		else
			r=FAIL
		fi
		w=$(grep -E '(kernel/uwtable|lib/sframe|lib/ehabi|arch/x86/kernel/uwtable|arch/x86/events|arch/arm64/kernel/perf_callchain|include/linux/(uwtable|sframe|ehabi)).*warning:' "$log" | sort -u | head -5)
		echo "$r $a $(git -C "$wt" rev-parse --short "$c") $s"
		[ -n "$w" ] && echo "$w"
		[ $r = FAIL ] && grep -E 'error|Error' "$log" | head -8
	done
done
git -C "$wt" checkout -q "$head"
