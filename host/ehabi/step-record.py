# SPDX-License-Identifier: GPL-2.0
"""gdb script: record every instruction a 32-bit ARM program's main runs.

Run by step-check.sh as
  gdb-multiarch -batch -nx -ex 'set $port = PORT' -x step-record.py PROG
against "qemu-arm -g PORT PROG".  For each instruction from main's entry
to its return it writes one line to $EHABI_RECORD_OUT:

  pc cpsr r0 ... r15 ; LO w0 w1 ... ; ra1 ra2 ...

(hex): the registers, the stack words from sp up to main's entry sp, and
the return addresses of the calls in progress, innermost first, ending
with main's own.  Those come from watching the program run, not from any
table: a "bl"/"blx" that leaves the next instruction pushes the address
after it (with the Thumb bit of the caller), arriving back there pops it.
"""
import os

import gdb

out = open(os.environ["EHABI_RECORD_OUT"], "w")
limit = int(os.environ.get("EHABI_RECORD_LIMIT", "20000"))

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :%d" % int(gdb.parse_and_eval("$port")))
gdb.execute("break *main")
gdb.execute("continue")


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xffffffff


frame = gdb.selected_frame()
arch = frame.architecture()
inf = gdb.selected_inferior()
main_ret = reg("lr")
top = reg("sp")                 # main's entry sp: the stack window's end
shadow = []                     # return addresses, outermost first
steps = 0

while steps < limit:
    pc = reg("pc")
    cpsr = reg("cpsr")
    if (pc & ~1) == (main_ret & ~1):
        break
    regs = [reg("r%d" % i) for i in range(13)] + [reg("sp"), reg("lr"), pc]
    sp = regs[13]
    words = []
    if sp < top:
        mem = bytes(inf.read_memory(sp, top - sp))
        words = [int.from_bytes(mem[i:i + 4], "little")
                 for i in range(0, len(mem) - 3, 4)]
    truth = list(reversed(shadow)) + [main_ret]
    out.write("%x %x %s ; %x %s ; %s\n" % (
        pc, cpsr, " ".join("%x" % r for r in regs), sp,
        " ".join("%x" % w for w in words), " ".join("%x" % a for a in truth)))
    steps += 1

    insn = arch.disassemble(pc)[0]
    mnem = insn["asm"].split()[0] if insn["asm"].split() else ""
    nxt = pc + insn["length"]
    gdb.execute("stepi", to_string=True)
    new = reg("pc")
    if mnem.startswith("bl") and not mnem.startswith("bls") and \
            (new & ~1) != nxt:
        shadow.append(nxt | (1 if cpsr & 0x20 else 0))
    elif shadow and (new & ~1) == (shadow[-1] & ~1):
        shadow.pop()

out.close()
gdb.write("recorded %d steps\n" % steps)
gdb.execute("kill")
