// SPDX-License-Identifier: GPL-2.0
/*
 * nosframe_libs200: a program linked with 200 shared libraries that have
 * no SFrame section (libs200/libnosfN.so, found through $ORIGIN), so that
 * its exec maps 200 files the SFrame discovery has to look at.  It does
 * nothing else.
 */
int main(void)
{
	return 0;
}
