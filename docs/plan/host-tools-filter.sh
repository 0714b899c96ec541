#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# index filter: host tools out of every snapshot; references to them reworded
git rm -r -q --cached --ignore-unmatch tools/lib/sframe tools/lib/ehabi
. "$(dirname "$0")/filter-lib.sh"
edit MAINTAINERS 's{^F:\ttools/lib/(sframe|ehabi)/\n}{}mg'
edit include/linux/ehabi.h 's{space \(tools/lib/ehabi\) so}{space so}'
edit include/linux/sframe.h 's{user space \(tools/lib/sframe\) so}{user space so}'
edit lib/ehabi/ehabi.c 's{ \* tools/lib/ehabi builds this file in user space}{ * The file also builds in user space}'
edit lib/sframe/sframe.c 's{ \* tools/lib/sframe builds this file in user space}{ * The file also builds in user space}'
edit lib/sframe/compact.c 's{; tools/lib/sframe checks that on every FRE of\n \* the corpus and of the fuzzers. inputs\.}{; a user-space build checks that on every FRE\n * of a corpus and of fuzzed inputs.}'
edit Documentation/core-api/ehabi.rst 's{``tools/lib/ehabi/step-check\.sh`` builds}{A host-side test (step-check) builds}; s{``tools/lib/ehabi/ehabi-diff\.py`` compares}{A host-side test (ehabi-diff) compares}; s{``tools/lib/ehabi/fuzz-ehabi\.c`` is a libFuzzer harness \(ASan, UBSan\): every}{A libFuzzer harness (ASan, UBSan) runs the decoder: every}; s{and the input that showed it is kept in\n``tools/lib/ehabi/fuzz-ehabi-regressions/``, which ``host-test\.sh``\nreplays\.}{and the input that showed it is kept and replayed with every run.}'
edit Documentation/core-api/sframe.rst 's{The same source builds in user space: ``tools/lib/sframe`` compiles\n``lib/sframe/sframe\.c`` with a few shim headers\.}{The same source builds in user space, with a few shim headers.}; s{ \(``tools/lib/sframe/ehframe-check``\):}{ (host build of the same code):}; s{\(``tools/lib/sframe/ehframe-check`` prints it\)}{(host build of the same code)}; s{tests \(``tools/lib/sframe``\) compare}{tests compare}'
edit Documentation/core-api/sframe.rst 's{ \(``tools/lib/sframe``\)(\s)}{$1}g'
