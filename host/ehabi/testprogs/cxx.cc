// SPDX-License-Identifier: GPL-2.0
/* A C++ program for ehabi-diff.py: unwind entries with a personality routine. */
#include <stdexcept>
#include <string>
#include <vector>
#include <cstdio>
struct S { std::string s; ~S() { std::puts(s.c_str()); } };
__attribute__((noinline)) int thrower(int n) { S a{"a"}; if (n > 3) throw std::runtime_error("x"); std::vector<int> v(n); return v.size(); }
__attribute__((noinline)) int catcher(int n) { try { S b{"b"}; return thrower(n); } catch (const std::exception &e) { return -1; } }
int main(int argc, char **) { return catcher(argc + 5) + catcher(argc); }
