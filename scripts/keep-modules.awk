# SPDX-License-Identifier: GPL-2.0
#
# awk -v keep="M..." -f keep-modules.awk DEPS DEBIAN CURRENT: the modules
# (options Debian has =m) to keep as well as KEEP so that the options
# Debian has =y, and the modules kept, that are not so in the .config
# CURRENT may be so again.  DEPS is what kconfig-deps printed for the
# tree, DEBIAN Debian's configuration.  One name a line; nothing when
# nothing more would help.  distro.sh calls it until it prints nothing.
#
# An option that is off because one of what it depends on is off needs
# each of those (the modules among them are kept; the others, options
# Debian has =y, are looked at on their own).  One that depends on
# nothing that is off is a helper without a prompt: it needs one of its
# selectors (or of the options its defaults name) to be on; the first
# module among them is kept, unless one of them already is.

function value(line,	v) { v = line; sub(/^CONFIG_[A-Za-z0-9_]*=/, "", v); return v }
function name(line,	n) { n = line; sub(/^CONFIG_/, "", n); sub(/=.*/, "", n); return n }

FILENAME == ARGV[1] && $1 == "+" { oneof[$2] = oneof[$2] " " $3; next }
FILENAME == ARGV[1] {
	side = 0
	for (i = 2; i <= NF; i++) {
		if ($i == "|")
			side = 1
		else if (side)
			oneof[$1] = oneof[$1] " " $i
		else
			need[$1] = need[$1] " " $i
	}
	next
}
!/^CONFIG_[A-Za-z0-9_]*=[ym]$/ { next }
FILENAME == ARGV[2] { debian[name($0)] = value($0); next }
{ current[name($0)] = value($0) }

END {
	n = split(keep, k, " ")
	for (i = 1; i <= n; i++)
		kept[k[i]] = 1
	for (s in debian)
		if ((debian[s] == "y" || s in kept) && current[s] != debian[s])
			want[s] = 1
	for (s in want) {
		off = 0
		n = split(need[s], a, " ")
		for (i = 1; i <= n; i++) {
			d = a[i]
			if (!(d in debian) || current[d] == debian[d])
				continue
			off = 1
			if (debian[d] == "m" && !(d in kept))
				add[d] = 1
		}
		if (off)
			continue
		have = 0
		first = ""
		n = split(oneof[s], a, " ")
		for (i = 1; i <= n; i++) {
			d = a[i]
			if (debian[d] != "m")
				continue
			if (d in kept || d in add)
				have = 1
			else if (first == "")
				first = d
		}
		if (!have && first != "")
			add[first] = 1
	}
	for (d in add)
		print d
}
