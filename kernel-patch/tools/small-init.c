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
 * With "kptest.drivers" on the kernel command line (boot-small.sh
 * --drivers, issue 24) it first drives the real devices QEMU gives the
 * kernel and saves the ring before any test module loads:
 *   DRIVERS         what it did: mounts the ext4 disk /dev/vda, the btrfs
 *                   disk /dev/vdb, the XFS disk /dev/vdc, the f2fs disk
 *                   /dev/vdd, the nilfs2 disk /dev/vde and the 9p share
 *                   "kd9p" (virtio, with 9p's debug messages of each 9P
 *                   message), writes a file on each and unmounts it, reads the start of /dev/sda,
 *                   /dev/sr0 and /dev/sdb, brings eth0 up and waits for
 *                   its link (a line per step with its status)
 *   KMSG-DRIVERS    the ring with printk.kprint_dict=full
 * and powers the machine off (arm64: PSCI) or reboots it (x86_64, where a
 * tinyconfig kernel has no ACPI to power off: QEMU runs with -no-reboot).
 * The kernel is booted with loglevel=1, so
 * its own console output does not interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/reboot.h>
#include <sys/stat.h>
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

/* whether @word is a word of the kernel command line */
static int cmdline_has(const char *word)
{
	char buf[4096], *tok, *save = NULL;
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (strcmp(tok, word) == 0)
			return 1;
	return 0;
}

static void step(const char *what, int rc)
{
	printf("%s %d\n", what, rc);
	fflush(stdout);
}

/*
 * read the first 64 KiB of a block device (the driver opens the medium),
 * waiting up to @wait seconds for it to appear: a USB stick is scanned
 * a second or more after its hub port comes up
 */
static int read_start(const char *dev, int wait)
{
	char buf[65536];
	int fd, rc = 0;

	while ((fd = open(dev, O_RDONLY)) < 0 && errno == ENOENT && wait-- > 0)
		sleep(1);
	if (fd < 0)
		return -errno;
	if (read(fd, buf, sizeof(buf)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int write_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, "kdmesg\n", 7) != 7)
		rc = -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* SIOCSIFFLAGS works on any socket; netlink is there whenever NET is */
static int link_up(const char *name)
{
	struct ifreq ifr;
	int fd = socket(AF_NETLINK, SOCK_RAW, 0), rc = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		rc = -errno;
	} else {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			rc = -errno;
	}
	close(fd);
	return rc;
}

/* mount @dev as @type (with @opts) on /mnt, write a file there, unmount it */
static void fs_steps(const char *dev, const char *type, const char *opts)
{
	char what[64];

	snprintf(what, sizeof(what), "mount %s %s", dev, type);
	step(what, mount(dev, "/mnt", type, 0, opts) ? -errno : 0);
	step("write /mnt/kdmesg", write_file("/mnt/kdmesg"));
	step("umount /mnt", umount("/mnt") ? -errno : 0);
}

/* section DRIVERS: the devices of boot-small.sh --drivers at work */
static void drivers(void)
{
	out("=====DRIVERS-BEGIN=====\n");
	mkdir("/mnt", 0755);
	fs_steps("/dev/vda", "ext4", NULL);
	fs_steps("/dev/vdb", "btrfs", NULL);
	fs_steps("/dev/vdc", "xfs", NULL);
	fs_steps("/dev/vdd", "f2fs", NULL);
	fs_steps("/dev/vde", "nilfs2", NULL);
	/* debug=4: P9_DEBUG_9P, a p9_debug() line per 9P message */
	fs_steps("kd9p", "9p", "trans=virtio,debug=4");
	step("read /dev/sda", read_start("/dev/sda", 0));
	step("read /dev/sr0", read_start("/dev/sr0", 0));
	step("read /dev/sdb", read_start("/dev/sdb", 20));
	step("up eth0", link_up("eth0"));
	/* e1000's watchdog reports the link about 2 s later */
	sleep(4);
	section("DRIVERS", 0);
	ring("KMSG-DRIVERS", "full");
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

	if (cmdline_has("kptest.drivers"))
		drivers();

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
