// SPDX-License-Identifier: GPL-2.0
/*
 * compat_exec: the arm64 guest's proof that AArch32 (compat) user space
 * runs: a static 32-bit ARM program that checks, against facts it does
 * not take from the kernel's say-so alone, that it really is a 32-bit
 * task on a 64-bit kernel.  Prints KTAP.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>
#include <unistd.h>

static int n;

static void result(int ok, const char *name)
{
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++n, name);
}

int main(void)
{
	unsigned char ident[EI_NIDENT] = { 0 };
	struct utsname u;
	unsigned long top = 0;
	const char *platform;
	char line[512];
	FILE *maps;
	int fd;

	printf("KTAP version 1\n1..4\n");

	/* The binary we run is a 32-bit ELF: read its own header. */
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd >= 0 && read(fd, ident, sizeof(ident)) != sizeof(ident))
		ident[EI_CLASS] = 0;
	if (fd >= 0)
		close(fd);
	result(ident[EI_CLASS] == ELFCLASS32 && sizeof(long) == 4,
	       "elf_class_is_32bit");

	/*
	 * The 64-bit kernel runs us as a compat task: it hands us the
	 * AArch32 platform string, while uname still names the 64-bit
	 * machine (no PER_LINUX32 personality was asked for).
	 */
	platform = (const char *)getauxval(AT_PLATFORM);
	result(uname(&u) == 0 && !strcmp(u.machine, "aarch64") &&
	       platform && !strcmp(platform, "v8l"), "compat_task_on_arm64");
	printf("# machine %s, platform %s, kernel %s\n", u.machine,
	       platform ? platform : "(none)", u.release);

	/* Every mapping, including the stack, lies below 4 GiB. */
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		unsigned long long s, e;

		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && e > top)
			top = e > 0xffffffffULL ? ~0UL : (unsigned long)e;
	}
	if (maps)
		fclose(maps);
	result(maps && top != ~0UL && top != 0, "maps_below_4g");

	/* The compat vectors page exists (kuser helpers). */
	result(*(volatile unsigned int *)0xffff0ffc >= 1, "kuser_helper_version");
	return 0;
}
