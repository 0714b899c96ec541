// SPDX-License-Identifier: GPL-2.0
/*
 * maps_query: list the executable mappings of a process through the
 * PROCMAP_QUERY ioctl, with names and build IDs.  Used by the demo.
 * Usage: maps_query [PID]   (default: itself)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

int main(int argc, char **argv)
{
	char path[64], name[4096];
	unsigned char id[20];
	struct procmap_query q;
	__u64 addr = 0;
	int fd, n = 0;
	__u32 i;

	snprintf(path, sizeof(path), "/proc/%s/maps", argc > 1 ? argv[1] : "self");
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	printf("%-29s %-4s %-8s %-40s %s\n", "range", "perm", "offset", "build id", "name");
	for (;;) {
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.query_addr = addr;
		q.query_flags = PROCMAP_QUERY_COVERING_OR_NEXT_VMA |
				PROCMAP_QUERY_VMA_EXECUTABLE;
		q.vma_name_addr = (__u64)(uintptr_t)name;
		q.vma_name_size = sizeof(name);
		q.build_id_addr = (__u64)(uintptr_t)id;
		q.build_id_size = sizeof(id);
		if (ioctl(fd, PROCMAP_QUERY, &q)) {
			if (errno == ENOENT)
				break;
			perror("PROCMAP_QUERY");
			return 1;
		}
		printf("%012llx-%012llx %c%c%c%c %08llx ",
		       (unsigned long long)q.vma_start, (unsigned long long)q.vma_end,
		       q.vma_flags & PROCMAP_QUERY_VMA_READABLE ? 'r' : '-',
		       q.vma_flags & PROCMAP_QUERY_VMA_WRITABLE ? 'w' : '-',
		       q.vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE ? 'x' : '-',
		       q.vma_flags & PROCMAP_QUERY_VMA_SHARED ? 's' : 'p',
		       (unsigned long long)q.vma_offset);
		for (i = 0; i < q.build_id_size; i++)
			printf("%02x", id[i]);
		printf("%*s %s\n", 40 - 2 * (int)q.build_id_size, "",
		       q.vma_name_size ? name : "");
		addr = q.vma_end;
		n++;
	}
	printf("%d executable mappings\n", n);
	close(fd);
	return 0;
}
