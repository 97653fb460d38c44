// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg-dump: print every record currently in /dev/kmsg, then exit.
 *
 * Opens /dev/kmsg non-blocking and read()s one record per call (the
 * interface returns exactly one record per read) until EAGAIN.  Before
 * each record it prints a line "@@ len=N" with the byte count read(2)
 * returned, so the host can check the record size limit; lost records
 * (EPIPE) and errors are reported as "@@ ..." lines too.  Records are
 * printed unchanged: a header line "pri,seq,ts,flags[,...];text" and the
 * dictionary lines, each starting with a space.
 *
 * Built statically on the host by check-kernel.sh (gcc -static).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	const char *path = argc > 1 ? argv[1] : "/dev/kmsg";
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	int errors = 0;

	if (fd < 0) {
		printf("@@ open %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EAGAIN)
				break;
			if (errno == EINTR)
				continue;
			if (errno == EPIPE) {
				printf("@@ EPIPE records lost\n");
				continue;
			}
			printf("@@ read error: %s\n", strerror(errno));
			if (++errors > 10)
				break;
			continue;
		}
		if (n == 0)
			break;
		printf("@@ len=%zd\n", n);
		fwrite(buf, 1, n, stdout);
		if (buf[n - 1] != '\n')
			printf("\n@@ no-trailing-newline\n");
	}
	fflush(stdout);
	close(fd);
	return 0;
}
