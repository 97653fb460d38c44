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
 * kmsg-dump --wait GO [path]: open /dev/kmsg, seek to its end (SEEK_END:
 * only records stored from now on), create the file GO.ready, then wait
 * without reading until the file GO exists, and only then read and print
 * as above.  The boot test uses it for ring exhaustion: a reader that was
 * open while the ring was overwritten must get EPIPE and then the records
 * of the EMERG reserve.
 *
 * kmsg-dump --bufsize N ...: read() with N bytes instead of 64 KiB, like a
 * reader with an N-byte buffer (a longer record fails with EINVAL, and
 * stays unread: after 10 errors the dump ends).  The boot test reads a log
 * full of maximal records with N = 2048.
 *
 * Built statically on the host by check-kernel.sh (gcc -static).
 */
#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void wait_for(const char *go)
{
	char ready[4096];
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int fd;

	snprintf(ready, sizeof(ready), "%s.ready", go);
	fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		close(fd);
	while (access(go, F_OK) != 0)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static char buf[65536];
	const char *go = NULL;
	size_t bufsize = sizeof(buf);
	const char *path;
	int fd;
	int errors = 0;

	if (argc > 2 && strcmp(argv[1], "--bufsize") == 0) {
		bufsize = strtoul(argv[2], NULL, 0);
		if (!bufsize || bufsize > sizeof(buf))
			bufsize = sizeof(buf);
		argv += 2;
		argc -= 2;
	}
	if (argc > 2 && strcmp(argv[1], "--wait") == 0) {
		go = argv[2];
		argv += 2;
		argc -= 2;
	}
	path = argc > 1 ? argv[1] : "/dev/kmsg";
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		printf("@@ open %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (go) {
		if (lseek(fd, 0, SEEK_END) < 0)
			printf("@@ lseek SEEK_END: %s\n", strerror(errno));
		wait_for(go);
	}
	for (;;) {
		ssize_t n = read(fd, buf, bufsize);

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
