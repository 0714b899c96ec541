# SPDX-License-Identifier: GPL-2.0
# The python3 workload of bench/distro_perf.sh and scripts/distro-check.sh:
# string formatting, joins and dict updates (the interpreter, and malloc,
# memmove and the like in libc) for ARGV[1] seconds.
import sys, time
def work(n):
    d = {}
    for i in range(n):
        s = "%d:%s" % (i, "x" * (i % 50))
        d[s[-8:]] = d.get(s[-8:], 0) + len(",".join([s, s[::-1]]))
    return len(d)
end = time.monotonic() + float(sys.argv[1])
total = 0
while time.monotonic() < end:
    total += work(2000)
print("work.py:", total)
