// SPDX-License-Identifier: GPL-2.0
/*
 * kprint_test - emits known kernel messages through every printk path so
 * that check-kernel.sh can verify the CONFIG_KPRINT structured fields
 * (CODE_FILE, CODE_LINE, CODE_FUNC, MODULE, FORMAT, ARGn) on /dev/kmsg.
 *
 * Every message text carries a unique tag "kptest:<tag>" and every call
 * carries a marker comment "KP:<tag>" on the line where the call starts;
 * the host checker (check-records.py) derives the expected CODE_LINE from
 * that marker and CODE_FUNC from the enclosing function.  Keep each call
 * on a single line so __LINE__ is unambiguous.
 *
 * Parameters:
 *   trigger=1     (write at runtime) emit the whole set again
 *   bench=N       (write at runtime) time N printk() calls, report ns/call
 *   bench_tag=S   label printed with the benchmark result (on/off/stock)
 *   bench_pv=1    the benchmark calls kp_pv_msg(), a wrapper through "%pV"
 *                 as ext4_msg() is, instead of printk() (issue 24)
 *   bench_result  (read) ns per call of the last benchmark (median of 5 loops)
 *   bench_min     (read) ns per call of its fastest loop
 *   maxfill=N     (write at runtime) emit N maximal records (issue 13)
 *   bench2=N      (write at runtime) printk() cost on the first CPU while a
 *                 kthread on every other CPU logs too (bench2_flush=0: N
 *                 printk() calls each; =1: kprint_buffer_flush() of 8-line
 *                 groups all the time); result in bench2_result (median ns
 *                 per call of 5 loops) and bench2_min
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/timer.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#ifdef CONFIG_KPRINT
#include <linux/kprint.h>
#endif
#ifdef CONFIG_ACPI
#include <linux/acpi.h>
#endif
#if IS_BUILTIN(CONFIG_DRM) && !defined(CONFIG_DRM_USE_DYNAMIC_DEBUG)
#define KP_DRM 1
#include <drm/drm_print.h>
#endif

static struct platform_device *kp_pdev;
static struct net_device *kp_ndev;

/* %pV: the call site is the pr_info() in this helper */
static __printf(2, 3) void kp_vaf(const char *tag, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("kptest:%s %pV\n", tag, &vaf); /* KP:pv */
	va_end(args);
}

static void kp_levels(void)
{
	printk("kptest:printk_nolevel plain %d\n", 1); /* KP:printk_nolevel */
	printk(KERN_NOTICE "kptest:printk_level value=%u\n", 42u); /* KP:printk_level */
	pr_emerg("kptest:lvl_emerg %s\n", "emerg"); /* KP:lvl_emerg */
	pr_alert("kptest:lvl_alert %s\n", "alert"); /* KP:lvl_alert */
	pr_crit("kptest:lvl_crit %s\n", "crit"); /* KP:lvl_crit */
	pr_err("kptest:lvl_err %s\n", "err"); /* KP:lvl_err */
	pr_warn("kptest:lvl_warn %s\n", "warn"); /* KP:lvl_warn */
	pr_notice("kptest:lvl_notice %s\n", "notice"); /* KP:lvl_notice */
	pr_info("kptest:lvl_info %s\n", "info"); /* KP:lvl_info */
	pr_debug("kptest:lvl_debug %s\n", "debug"); /* KP:lvl_debug */
}

/* A printk() without a call-site descriptor: vprintk() is called directly. */
static __printf(1, 2) void kp_nosite(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}

static void kp_cont(void)
{
	int i;

	pr_info("kptest:cont_seq start"); /* KP:cont_seq */
	pr_cont(" a=%d", 1); /* KP:cont_seq_1 */
	pr_cont(" b=%s", "two"); /* KP:cont_seq_2 */
	pr_cont(" end\n"); /* KP:cont_seq_3 */
	printk(KERN_INFO "kptest:cont_printk a"); /* KP:cont_printk */
	printk(KERN_CONT "b%d", 2); /* KP:cont_printk_1 */
	printk(KERN_CONT "\n"); /* KP:cont_printk_2 */
	/* a fragment without a call site: its part has no PART2_FORMAT */
	pr_info("kptest:cont_nosite a=%d", 1); /* KP:cont_nosite */
	kp_nosite(KERN_CONT " b=%d", 2);
	pr_cont("\n");
	/* more fragments than the table of parts holds: no PARTS at all */
	pr_info("kptest:cont_many"); /* KP:cont_many */
	for (i = 0; i < 60; i++)
		pr_cont(" %d", i);
	pr_cont("\n");
}

static void kp_once_ratelimited(void)
{
	int i;

	for (i = 0; i < 3; i++)
		pr_info_once("kptest:once i=%d\n", i); /* KP:once */
	for (i = 0; i < 3; i++)
		pr_warn_once("kptest:warn_once i=%d\n", i); /* KP:warn_once */
	/* default ratelimit: burst of 10 per 5 s, so i=0..9 get through */
	for (i = 0; i < 15; i++)
		pr_info_ratelimited("kptest:ratelimited i=%d\n", i); /* KP:ratelimited */
}

static void kp_deferred(void)
{
#ifdef KPTEST_HAVE_PRINTK_DEFERRED
	printk_deferred(KERN_INFO "kptest:deferred v=%d\n", 7); /* KP:deferred */
#else
	/* Kbuild found no _printk_deferred export in Module.symvers */
	pr_info("kptest:deferred_skip _printk_deferred is not exported to modules\n"); /* KP:deferred_skip */
#endif
}

static void kp_dev(void)
{
	if (!kp_pdev)
		return;
	dev_err(&kp_pdev->dev, "kptest:dev_err code=%d\n", -5); /* KP:dev_err */
	dev_info(&kp_pdev->dev, "kptest:dev_info name=%s\n", "plat"); /* KP:dev_info */
	dev_printk(KERN_NOTICE, &kp_pdev->dev, "kptest:dev_printk n=%u\n", 3u); /* KP:dev_printk */
	dev_dbg(&kp_pdev->dev, "kptest:dev_dbg x=%x\n", 0xbeef); /* KP:dev_dbg */
	dev_err_probe(&kp_pdev->dev, -EINVAL, "kptest:dev_err_probe n=%d\n", 7); /* KP:dev_err_probe */
	dev_warn_probe(&kp_pdev->dev, -EIO, "kptest:dev_warn_probe s=%s\n", "w"); /* KP:dev_warn_probe */
}

static void kp_netdev(void)
{
	if (!kp_ndev)
		return;
	netdev_info(kp_ndev, "kptest:netdev_info carrier=%s\n", "up"); /* KP:netdev_info */
	netdev_warn(kp_ndev, "kptest:netdev_warn mtu=%d\n", 1500); /* KP:netdev_warn */
	netdev_dbg(kp_ndev, "kptest:netdev_dbg q=%d\n", 0); /* KP:netdev_dbg */
}

static void kp_formats(void)
{
	static const u8 hex[6] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x7f };
	static const u8 mac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };
	__be32 ip = htonl(0xc0a80001);

	kp_vaf("pv", "inner a=%d b=%s", 5, "bee");
	pr_info("kptest:hex %*ph\n", 6, hex); /* KP:hex */
	pr_info("kptest:ip4 %pI4\n", &ip); /* KP:ip4 */
	pr_info("kptest:mac %pM\n", mac); /* KP:mac */
	pr_info("kptest:nl_utf8 [%s]\n", "line1\nline2 \xc3\xa9t\xc3\xa9 \xe2\x82\xac"); /* KP:nl_utf8 */
	pr_info("kptest:zero_args no conversions here\n"); /* KP:zero_args */
	pr_info("kptest:percent 100%% done %d\n", 3); /* KP:percent */
	pr_info("kptest:many12 %d %u %x %X %lu %lld %c %s %5d %-4s| %*d %.*s\n", -1, 2u, 0xab, 0xcd, 5ul, -6ll, 'g', "eight", 9, "ten", 6, 11, 2, "twelve"); /* KP:many12 */
}

#ifdef CONFIG_ACPI
ACPI_MODULE_NAME("kprint_test");

/* ACPICA's message macros, as ACPICA's own code calls them (issue 24) */
static void kp_acpi(void)
{
	ACPI_INFO(("kptest:acpi_info n=%d", 1)); /* KP:acpi_info */
	ACPI_ERROR((AE_INFO, "kptest:acpi_error s=%s", "bad")); /* KP:acpi_error */
	ACPI_EXCEPTION((AE_INFO, AE_NOT_FOUND, "kptest:acpi_exception n=%u", 2u)); /* KP:acpi_exception */
	ACPI_BIOS_WARNING((AE_INFO, "kptest:acpi_bios_warning x=%x", 0xab)); /* KP:acpi_bios_warning */
}
#else
static void kp_acpi(void)
{
	pr_info("kptest:acpi_off no ACPI in this kernel\n");
}
#endif

/*
 * DRM's message macros (wrappers/0007): DRM_ERROR() and DRM_DEBUG_DRIVER()
 * without a device, DRM_DEV_ERROR() and DRM_DEV_DEBUG_DRIVER() with the
 * platform device; drm.debug's DRIVER bit is set around the debug ones.
 */
#ifdef KP_DRM
static void kp_drm(void)
{
	unsigned long saved = __drm_debug;

	DRM_ERROR("kptest:drm_error n=%d\n", 1); /* KP:drm_error */
	__drm_debug |= BIT(DRM_UT_DRIVER);
	DRM_DEBUG_DRIVER("kptest:drm_debug x=%x\n", 0xcd); /* KP:drm_debug */
	if (kp_pdev) {
		DRM_DEV_ERROR(&kp_pdev->dev, "kptest:drm_dev_error s=%s\n", "bad"); /* KP:drm_dev_error */
		DRM_DEV_DEBUG_DRIVER(&kp_pdev->dev, "kptest:drm_dev_debug u=%u\n", 9u); /* KP:drm_dev_debug */
	}
	__drm_debug = saved;
}
#else
static void kp_drm(void)
{
	pr_info("kptest:drm_off no DRM built into this kernel\n");
}
#endif

#define KP_D10 "%d %d %d %d %d %d %d %d %d %d "
static void kp_caps(void)
{
	char *buf;

	/* 70 conversions: more than the 64 dictionary lines allowed */
	pr_info("kptest:many70 " KP_D10 KP_D10 KP_D10 KP_D10 KP_D10 KP_D10 KP_D10 "end\n", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69); /* KP:many70 */

	buf = kmalloc(2001, GFP_KERNEL);
	if (!buf)
		return;
	/* 2000 printable characters: longer than a record's text (1024) */
	{
		int i;

		for (i = 0; i < 2000; i++)
			buf[i] = 'a' + i % 26;
		buf[2000] = '\0';
	}
	pr_info("kptest:long2000 <%s>\n", buf); /* KP:long2000 */
	/*
	 * 400 control bytes, each escaped to 4 bytes in the text and in ARG0:
	 * the record is longer than stock's 2048-byte /dev/kmsg line, but its
	 * text line is not cut
	 */
	memset(buf, 0x01, 400);
	buf[400] = '\0';
	pr_info("kptest:long_escape <%s>\n", buf); /* KP:long_escape */
	/*
	 * 1000 control bytes: the escaped text line is cut at 2048 bytes (where
	 * depends on the header's length, i.e. on the timestamp's digits)
	 */
	memset(buf, 0x01, 1000);
	buf[1000] = '\0';
	pr_info("kptest:long_cut <%s>\n", buf); /* KP:long_cut */
	/* several long arguments that together exceed the record limit */
	memset(buf, 'x', 300);
	buf[300] = '\0';
	pr_info("kptest:long_multi %s %s %s %s\n", buf, buf, buf, buf); /* KP:long_multi */
	kfree(buf);
}

/* timer_list callback: softirq context */
static struct timer_list kp_timer;
static DECLARE_COMPLETION(kp_timer_done);

static void kp_timer_fn(struct timer_list *t)
{
	pr_info("kptest:ctx_softirq in_softirq=%d\n", !!in_softirq()); /* KP:ctx_softirq */
	complete(&kp_timer_done);
}

/* hrtimer in HARD mode: hardirq context */
static struct hrtimer kp_hrtimer;
static DECLARE_COMPLETION(kp_hrtimer_done);

static enum hrtimer_restart kp_hrtimer_fn(struct hrtimer *t)
{
	pr_info("kptest:ctx_hardirq in_hardirq=%d\n", !!in_hardirq()); /* KP:ctx_hardirq */
	complete(&kp_hrtimer_done);
	return HRTIMER_NORESTART;
}

/* IPI on every CPU: hardirq context, several CPUs */
static void kp_ipi_fn(void *unused)
{
	pr_info("kptest:ctx_ipi cpu=%d\n", smp_processor_id()); /* KP:ctx_ipi */
}

/* one kthread bound to each CPU, all printing at the same time */
#define KP_KTHREAD_MSGS 20
static atomic_t kp_kthreads_left;
static DECLARE_COMPLETION(kp_kthreads_done);
static DECLARE_COMPLETION(kp_kthreads_go);

static int kp_kthread_fn(void *data)
{
	int cpu = (long)data;
	int i;

	wait_for_completion(&kp_kthreads_go);
	for (i = 0; i < KP_KTHREAD_MSGS; i++)
		pr_info("kptest:ctx_kthread cpu=%d n=%d\n", cpu, i); /* KP:ctx_kthread */
	if (atomic_dec_and_test(&kp_kthreads_left))
		complete(&kp_kthreads_done);
	return 0;
}

static void kp_contexts(void)
{
	struct task_struct *t;
	long cpu;

	timer_setup(&kp_timer, kp_timer_fn, 0);
	reinit_completion(&kp_timer_done);
	mod_timer(&kp_timer, jiffies + 1);
	wait_for_completion_timeout(&kp_timer_done, 5 * HZ);
	del_timer_sync(&kp_timer);

	hrtimer_init(&kp_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	kp_hrtimer.function = kp_hrtimer_fn;
	reinit_completion(&kp_hrtimer_done);
	hrtimer_start(&kp_hrtimer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	wait_for_completion_timeout(&kp_hrtimer_done, 5 * HZ);
	hrtimer_cancel(&kp_hrtimer);

	on_each_cpu(kp_ipi_fn, NULL, 1);

	reinit_completion(&kp_kthreads_go);
	reinit_completion(&kp_kthreads_done);
	atomic_set(&kp_kthreads_left, 1);	/* bias, dropped below */
	for_each_online_cpu(cpu) {
		t = kthread_create(kp_kthread_fn, (void *)cpu, "kptest/%ld", cpu);
		if (IS_ERR(t))
			continue;
		kthread_bind(t, cpu);
		atomic_inc(&kp_kthreads_left);
		wake_up_process(t);
	}
	complete_all(&kp_kthreads_go);
	if (atomic_dec_and_test(&kp_kthreads_left))
		complete(&kp_kthreads_done);
	wait_for_completion_timeout(&kp_kthreads_done, 10 * HZ);
}

static void kp_emit_all(void)
{
	kp_levels();
	kp_cont();
	kp_once_ratelimited();
	kp_deferred();
	kp_dev();
	kp_netdev();
	kp_formats();
	kp_acpi();
	kp_drm();
	kp_caps();
	kp_contexts();
	pr_info("kptest:done\n"); /* KP:done */
}

/* ---- runtime trigger ---- */
static int kp_trigger_set(const char *val, const struct kernel_param *kp)
{
	kp_emit_all();
	return 0;
}

static const struct kernel_param_ops kp_trigger_ops = {
	.set = kp_trigger_set,
	.get = param_get_int,
};

static int trigger;
module_param_cb(trigger, &kp_trigger_ops, &trigger, 0644);
MODULE_PARM_DESC(trigger, "write anything to emit all test messages again");

/*
 * ---- a log full of maximal records (issue 13) ----
 * 32 arguments (KPRINT_MAX_ARGS), text near the 1024-byte record limit:
 * even records carry 31 arguments of 31 printable characters, odd ones 14
 * control bytes each (escaped to 4 bytes), so that their text line alone
 * takes most of the 2047 bytes a /dev/kmsg record may have.  The dictionary
 * lines of both do not all fit; the host checks that every reader gets
 * every record that is in the ring.
 */
#define KP_MAX_FMT "kptest:maxrec %d" \
	" %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s" \
	" %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s\n"
#define KP_MAX_ARGS31(a) a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, \
	a, a, a, a, a, a, a, a, a, a, a, a, a, a, a

static void kp_maxfill(int n)
{
	char v[2][32];
	int i;

	memset(v[0], 'm', 31);
	v[0][31] = '\0';
	memset(v[1], 0x01, 14);
	v[1][14] = '\0';
	for (i = 0; i < n; i++) {
		const char *a = v[i & 1];

		pr_info(KP_MAX_FMT, i, KP_MAX_ARGS31(a)); /* KP:maxrec */
	}
}

static int kp_maxfill_set(const char *val, const struct kernel_param *kp)
{
	int n, ret = kstrtoint(val, 0, &n);

	if (ret)
		return ret;
	kp_maxfill(n);
	return 0;
}

static const struct kernel_param_ops kp_maxfill_ops = {
	.set = kp_maxfill_set,
	.get = param_get_int,
};

static int maxfill;
module_param_cb(maxfill, &kp_maxfill_ops, &maxfill, 0644);
MODULE_PARM_DESC(maxfill, "write N to emit N maximal records");

/* ---- benchmark: cost of one printk() ---- */
static char *bench_tag = "none";
module_param(bench_tag, charp, 0644);
MODULE_PARM_DESC(bench_tag, "label printed with the benchmark result");

static unsigned long bench_result;
module_param(bench_result, ulong, 0444);
MODULE_PARM_DESC(bench_result, "ns per printk() of the last benchmark (median of its loops)");

static unsigned long bench_min;
module_param(bench_min, ulong, 0444);
MODULE_PARM_DESC(bench_min, "ns per printk() of the fastest loop of the last benchmark");

static int bench_pv;
module_param(bench_pv, int, 0644);
MODULE_PARM_DESC(bench_pv, "1: time kp_pv_msg(), a %pV wrapper, instead of printk()");

/*
 * A subsystem wrapper that formats its caller's format through "%pV"
 * inside its own printk(), as ext4_msg() does; with CONFIG_KPRINT it
 * passes its caller's descriptor, as ext4_msg() does with the series'
 * wrappers/0001 (issue 24: its cost against the stock kernel's).
 */
#ifdef KPRINT_SITES
static __printf(3, 4) void kp_pv_msg_site(const struct kprint_site *site, const char *level,
					  const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	_printk_site(site, "%skpwrap (%s): %pV\n", level, "kpdev", &vaf);
	va_end(args);
}

#define kp_pv_msg(level, fmt, ...)						\
	({									\
		__kprint_site_define_kind(__kp_site, fmt, level, KPRINT_SITE_PLAIN); \
		kp_pv_msg_site(&__kp_site, level, fmt, ##__VA_ARGS__);		\
	})
#else
static __printf(2, 3) void kp_pv_msg(const char *level, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk("%skpwrap (%s): %pV\n", level, "kpdev", &vaf);
	va_end(args);
}
#endif

#define KP_BENCH_REPS 5

static int kp_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void kp_bench(int n)
{
	u64 per[KP_BENCH_REPS];
	int rep, i;

	if (n <= 0)
		return;
	for (rep = 0; rep < KP_BENCH_REPS; rep++) {
		u64 t0 = ktime_get_ns();

		if (bench_pv) {
			for (i = 0; i < n; i++)
				kp_pv_msg(KERN_INFO, "kpbench: i=%d s=%s x=%x", i, "abc", i);
		} else {
			for (i = 0; i < n; i++)
				printk(KERN_INFO "kpbench: i=%d s=%s x=%x\n", i, "abc", i);
		}
		per[rep] = div_u64(ktime_get_ns() - t0, n);
		cond_resched();
	}
	sort(per, KP_BENCH_REPS, sizeof(per[0]), kp_cmp_u64, NULL);
	bench_result = per[KP_BENCH_REPS / 2];
	bench_min = per[0];
	pr_info("kptest:bench ns_per_call=%lu switch=%s n=%d min=%llu max=%llu pv=%d\n", bench_result, bench_tag, n, per[0], per[KP_BENCH_REPS - 1], bench_pv); /* KP:bench */
}

static int kp_bench_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_int(val, kp);

	if (ret)
		return ret;
	kp_bench(*(int *)kp->arg);
	return 0;
}

static const struct kernel_param_ops kp_bench_ops = {
	.set = kp_bench_set,
	.get = param_get_int,
};

static int bench;
module_param_cb(bench, &kp_bench_ops, &bench, 0644);
MODULE_PARM_DESC(bench, "time N printk() calls (at load or when written)");

/* ---- devices ---- */
/*
 * ---- printk() under contention (issue 13): the first online CPU times
 * its calls while a kthread on each other CPU logs at the same time ----
 */
static int bench2_flush;
module_param(bench2_flush, int, 0644);
MODULE_PARM_DESC(bench2_flush, "1: the other CPUs flush groups instead of calling printk()");

static unsigned long bench2_result;
module_param(bench2_result, ulong, 0444);
MODULE_PARM_DESC(bench2_result, "ns per printk() on the first CPU under contention (median)");

static unsigned long bench2_min;
module_param(bench2_min, ulong, 0444);
MODULE_PARM_DESC(bench2_min, "ns per printk() of the fastest loop under contention");

static atomic_t kp_b2_left;
static bool kp_b2_stop;
static DECLARE_COMPLETION(kp_b2_go);
static DECLARE_COMPLETION(kp_b2_done);

static void kp_b2_other(int n)
{
	int i = 0;

	/*
	 * cond_resched(): without it, on a kernel without preemption, this
	 * loop (unbounded while groups are flushed) kept the other CPU in
	 * stop_machine() waiting for this one for ever, and the boot hung
	 * (twice in 12 boots of measure-contention.sh and a loop of boots)
	 */
	while (!READ_ONCE(kp_b2_stop)) {
		cond_resched();
#if defined(kprint_buffer) && defined(KPAPI_HAVE_BUFFER_SYMS)
		if (bench2_flush) {
			struct kprint_buffer *buf = kmalloc(sizeof(*buf), GFP_KERNEL);
			int l;

			if (!buf)
				break;
			kprint_buffer_init(buf, KPRINT_INFO);
			for (l = 0; l < 8; l++)
				kprint_buffer(buf, "kpbench2: group line %d of %d", l, i);
			kprint_buffer_flush(buf);
			kfree(buf);
			i++;
			continue;
		}
#endif
		printk(KERN_INFO "kpbench2: other i=%d s=%s x=%x\n", i, "abc", i);
		if (++i >= n)
			break;
	}
}

static int kp_b2_n;
static u64 kp_b2_ns;

/* the kthread of the first CPU times its calls, the others log meanwhile */
static int kp_b2_fn(void *data)
{
	bool first = data;
	u64 t0;
	int i;

	wait_for_completion(&kp_b2_go);
	if (first) {
		t0 = ktime_get_ns();
		for (i = 0; i < kp_b2_n; i++)
			printk(KERN_INFO "kpbench2: first i=%d s=%s x=%x\n", i, "abc", i);
		kp_b2_ns = div_u64(ktime_get_ns() - t0, kp_b2_n);
		WRITE_ONCE(kp_b2_stop, true);
	} else {
		kp_b2_other(kp_b2_n);
	}
	if (atomic_dec_and_test(&kp_b2_left))
		complete(&kp_b2_done);
	return 0;
}

static u64 kp_b2_loop(int n)
{
	int first = cpumask_first(cpu_online_mask);
	struct task_struct *t;
	long cpu;

	kp_b2_n = n;
	kp_b2_ns = 0;
	reinit_completion(&kp_b2_go);
	reinit_completion(&kp_b2_done);
	WRITE_ONCE(kp_b2_stop, false);
	atomic_set(&kp_b2_left, 1);	/* bias, dropped below */
	for_each_online_cpu(cpu) {
		t = kthread_create(kp_b2_fn, (void *)(long)(cpu == first), "kpbench2/%ld", cpu);
		if (IS_ERR(t))
			continue;
		kthread_bind(t, cpu);
		atomic_inc(&kp_b2_left);
		wake_up_process(t);
	}
	complete_all(&kp_b2_go);
	if (atomic_dec_and_test(&kp_b2_left))
		complete(&kp_b2_done);
	wait_for_completion_timeout(&kp_b2_done, 60 * HZ);
	return kp_b2_ns;
}

static int kp_bench2_set(const char *val, const struct kernel_param *kp)
{
	u64 per[KP_BENCH_REPS];
	int n, rep, ret = kstrtoint(val, 0, &n);

	if (ret || n <= 0)
		return ret ? ret : -EINVAL;
	for (rep = 0; rep < KP_BENCH_REPS; rep++)
		per[rep] = kp_b2_loop(n);
	sort(per, KP_BENCH_REPS, sizeof(per[0]), kp_cmp_u64, NULL);
	bench2_result = per[KP_BENCH_REPS / 2];
	bench2_min = per[0];
	return 0;
}

static const struct kernel_param_ops kp_bench2_ops = {
	.set = kp_bench2_set,
	.get = param_get_int,
};

static int bench2;
module_param_cb(bench2, &kp_bench2_ops, &bench2, 0644);
MODULE_PARM_DESC(bench2, "write N: time N printk() calls under contention");

static void kp_netdev_setup(struct net_device *dev)
{
	ether_setup(dev);
}

static const struct net_device_ops kp_netdev_ops = {
};

static void kp_devices_init(void)
{
	static const u8 addr[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x00, 0x00, 0x01 };

	kp_pdev = platform_device_register_simple("kptest", -1, NULL, 0);
	if (IS_ERR(kp_pdev))
		kp_pdev = NULL;

	kp_ndev = alloc_netdev(0, "kpt%d", NET_NAME_ENUM, kp_netdev_setup);
	if (!kp_ndev)
		return;
	kp_ndev->netdev_ops = &kp_netdev_ops;
	eth_hw_addr_set(kp_ndev, addr);
	if (register_netdev(kp_ndev)) {
		free_netdev(kp_ndev);
		kp_ndev = NULL;
	}
}

static void kp_devices_exit(void)
{
	if (kp_ndev) {
		unregister_netdev(kp_ndev);
		free_netdev(kp_ndev);
		kp_ndev = NULL;
	}
	if (kp_pdev) {
		platform_device_unregister(kp_pdev);
		kp_pdev = NULL;
	}
}

static int __init kp_init(void)
{
	kp_devices_init();
	kp_emit_all();
	return 0;
}

static void __exit kp_exit(void)
{
	kp_devices_exit();
}

module_init(kp_init);
module_exit(kp_exit);
MODULE_DESCRIPTION("Emits known messages through every printk path for the CONFIG_KPRINT boot test");
MODULE_LICENSE("GPL");
