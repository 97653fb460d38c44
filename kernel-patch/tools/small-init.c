// SPDX-License-Identifier: GPL-2.0
/*
 * small-init: /init of the boot-small.sh initramfs (check-arm64.sh,
 * check-alone.sh; no shell: the image holds only this program and
 * kmsg-dump, both built statically for the booted architecture, and the
 * test modules).
 *
 * It mounts /dev, /proc, /sys and debugfs, loads /kprint_test.ko (the
 * test module, whose messages check-small.py checks as check-records.py
 * does on x86_64), then writes to the console, between
 * "=====NAME-BEGIN=====" and "=====NAME-END=====" markers (the format
 * tools/init.sh writes for check-kernel.sh):
 *   INSMOD     the status of loading the module (dyndbg=+p)
 *   KMSG       the ring with printk.kprint_dict=full (kmsg-dump)
 *   KMSG-SITE  the ring again in the default form (kprint_dict=site)
 *   SITES      <debugfs>/kprint/sites
 *   UNAME      the kernel release and machine
 * then loads /kprint_api.ko (the kprint API test module, whose assembly
 * callers have arm64 and x86_64 code; absent when the kernel has no kprint
 * API, INSMOD-API then says -ENOENT) and writes
 *   INSMOD-API the status of loading it (dyndbg=+p)
 *   KMSG-API   the ring with printk.kprint_dict=full
 * and powers the machine off (arm64: PSCI) or reboots it (x86_64, where a
 * tinyconfig kernel has no ACPI to power off: QEMU runs with -no-reboot).
 * The kernel is booted with loglevel=1, so
 * its own console output does not interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define SWITCH	"/sys/module/printk/parameters/kprint_dict"
#define SITES	"/sys/kernel/debug/kprint/sites"

static void out(const char *s)
{
	fputs(s, stdout);
	fflush(stdout);
}

static int set_switch(const char *word)
{
	int fd = open(SWITCH, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, word, strlen(word));
	close(fd);
	return n < 0 ? -errno : 0;
}

static int run(const char *path)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execl(path, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0)
		return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int copy(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	fflush(stdout);
	return n < 0 ? -errno : 0;
}

/*
 * insmod without a shell (finit_module(2) has no libc wrapper), with the
 * module's pr_debug() sites on, as tools/init.sh loads it
 */
static int load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return rc;
}

static void section(const char *name, int rc)
{
	printf("=====%s-END=====\n=====%s-RC=%d=====\n", name, name, rc);
	fflush(stdout);
}

/* section @name: the ring as kmsg-dump reads it with the lines in @form */
static void ring(const char *name, const char *form)
{
	int rc;

	printf("=====%s-BEGIN=====\n", name);
	fflush(stdout);
	rc = set_switch(form);
	section(name, rc ? rc : run("/kmsg-dump"));
}

int main(void)
{
	struct utsname u;
	int rc;

	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	if (!freopen("/dev/console", "w", stdout))
		return 1;

	out("=====UNAME-BEGIN=====\n");
	rc = uname(&u);
	if (rc == 0)
		printf("%s %s %s\n", u.sysname, u.release, u.machine);
	section("UNAME", rc);

	out("=====INSMOD-BEGIN=====\n");
	section("INSMOD", load_module("/kprint_test.ko", "dyndbg=+p"));

	ring("KMSG", "full");
	ring("KMSG-SITE", "site");

	out("=====SITES-BEGIN=====\n");
	section("SITES", copy(SITES));

	/* after the site table: the checks above see kprint_test.ko alone */
	out("=====INSMOD-API-BEGIN=====\n");
	section("INSMOD-API", load_module("/kprint_api.ko", "dyndbg=+p"));

	ring("KMSG-API", "full");

	out("=====DONE=====\n");
	sync();
#ifdef __x86_64__
	reboot(RB_AUTOBOOT);
#else
	reboot(RB_POWER_OFF);
#endif
	return 0;
}
