# SPDX-License-Identifier: GPL-2.0
# The user-facing targets; see README.md.  Everything is built in build/.

S := scripts

.PHONY: help tree export check msg-check survival bisect-check test demo shell bench bench-compat distro distro-arm64 fuzz-sframe clean
help:
	@echo "make demo          boot the patched x86_64 kernel and show what the series adds"
	@echo "make test          build both kernels and the tests, run every suite in QEMU"
	@echo "make tree          make the work tree build/linux (base + one commit per patch)"
	@echo "make export        write the work tree's commits back into patches/"
	@echo "make check         the series applies, passes checkpatch --strict and msg-check, compiles everywhere"
	@echo "make msg-check     commit messages: no repository names, history or checkpatch lines"
	@echo "make survival      lines each patch adds that a later patch deletes or moves"
	@echo "make bisect-check  build the x86_64 kernel at every patch"
	@echo "make bench         run the benchmarks in the guest (ratios measured side by side)"
	@echo "make bench-compat  the AArch32 callchain walk's worst case per sample, this series and 6.1"
	@echo "make distro        Debian-config kernel packages and a Debian 12 image booted with them (long; not in CI)"
	@echo "make distro-arm64  the series built from Debian's arm64 configuration (long; not in CI)"
	@echo "make shell         boot the x86_64 guest with an interactive shell"
	@echo "make fuzz-sframe   fuzz the SFrame decoder on the host (FUZZ_SECONDS, default 300)"

tree:
	$(S)/tree.sh build/linux

export:
	$(S)/export.sh build/linux

check:
	$(S)/check.sh

msg-check:
	$(S)/msg-check.sh

survival:
	$(S)/survival.sh build/linux

bisect-check:
	$(S)/bisect-check.sh

test:
	$(S)/test.sh

demo:
	$(S)/demo.sh

shell:
	$(S)/demo.sh --shell

bench:
	$(S)/bench.sh

bench-compat:
	$(S)/bench-compat.sh

distro:
	$(S)/distro.sh

distro-arm64:
	$(S)/distro.sh arm64

fuzz-sframe:
	$(S)/fuzz-sframe.sh $(or $(FUZZ_SECONDS),300)

clean:
	rm -rf build
