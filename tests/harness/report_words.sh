#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A suite whose own output holds the words of kernel reports.  The job
# prints it to the console, where it has no printk time stamp: the
# report check (guest.sh) must not take it for a report, and test.sh's
# report_check looks for the first line to prove the words got there.
echo "KTAP version 1"
echo "1..1"
echo "# WARNING: report_words: this is a test's own output, not a kernel report"
echo "# BUG: report_words: neither is this"
echo "# Call Trace: report_words"
echo "# Call trace: report_words"
echo "# Oops: report_words"
echo "ok 1 report_words"
