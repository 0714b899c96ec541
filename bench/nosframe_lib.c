// SPDX-License-Identifier: GPL-2.0
/* One of the 200 libraries of nosframe_libs200: no SFrame, no frame pointer. */
#define NAME_(n)	nosf_fn_##n
#define NAME(n)		NAME_(n)

int NAME(NOSF_N)(int x);

int NAME(NOSF_N)(int x)
{
	return x + NOSF_N;
}
