// SPDX-License-Identifier: GPL-2.0
/*
 * kprint_api - exercises every call of the kprint API of issue 4
 * (include/linux/kprint.h) for the boot test; check-records.py checks the
 * records on the host.  Every message carries a tag "kpapi:<tag>" (not
 * "kptest:", so the kprint-vs-stock comparisons of kprint_test.ko stay as
 * they are).  Parts of the API the kernel does not have are reported as
 * "kpapi:api_missing what=<part>" records at EMERG level, which the host
 * counts as failed checks, so the module builds against every revision of
 * the series.
 *
 * Files of the module:
 *   kpapi.c       this file: every API call from process, softirq and
 *                 hardirq context, groups from the three and from two CPUs at once, overflow,
 *                 abort, argument side effects, the messages that the
 *                 compile-time cut-off must remove ("kpapi:cut_*"), and the
 *                 ring flood of the EMERG-reserve test;
 *   kpapi_keep.c  compiled with -DKPRINT_KEEP_FILE (see Kbuild): the same
 *                 per-level messages ("kpapi:keep_*"), which must survive
 *                 any cut-off;
 *   kpapi_asm.S   assembly callers of kprint_asm() (no call site), of
 *                 kprint_asm_site() (a KPRINT_ASM_SITE descriptor) and
 *                 of kprint_early().
 *
 * Parameters:
 *   flood=N  (write at runtime) emit one EMERG record "kpapi:reserve_emerg"
 *            and then N INFO records, enough to overwrite the whole ring,
 *            then read the log with kmsg_dump_get_buffer() ("kpapi:reserve_dumpbuf")
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/smp.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/kmsg_dump.h>
#include <linux/slab.h>
#include <linux/string.h>
#if __has_include(<linux/kprint.h>)
#include <linux/kprint.h>
#endif

#include "kpapi.h"

/* Kbuild found the symbols in Module.symvers (see Kbuild) */
#if defined(kprint_info) && defined(kprint_emerg) && defined(kprint_debug) && defined(kprint)
#define KPAPI_LEVELS 1
#endif
#if defined(kprint_buffer) && defined(KPAPI_HAVE_BUFFER_SYMS)
#define KPAPI_GROUPS 1
#endif
#if defined(kprint_early) && defined(KPAPI_HAVE_EARLY_SYM)
#define KPAPI_EARLY 1
#endif

#define KPAPI_MISSING(what) pr_emerg("kpapi:api_missing what=%s\n", what)

/* ---- argument side effects: counted at every cut-off ---- */
static int kp_side;

static void kp_cut_messages(void)
{
	/*
	 * One message per level through pr_*() and printk(KERN_x): at cut-off
	 * C those with level > C must be gone from the log and the .ko.
	 */
	pr_emerg("kpapi:cut_pr_0 side=%d\n", ++kp_side);
	pr_alert("kpapi:cut_pr_1 side=%d\n", ++kp_side);
	pr_crit("kpapi:cut_pr_2 side=%d\n", ++kp_side);
	pr_err("kpapi:cut_pr_3 side=%d\n", ++kp_side);
	pr_warn("kpapi:cut_pr_4 side=%d\n", ++kp_side);
	pr_notice("kpapi:cut_pr_5 side=%d\n", ++kp_side);
	pr_info("kpapi:cut_pr_6 side=%d\n", ++kp_side);
	printk(KERN_DEBUG "kpapi:cut_pr_7 side=%d\n", ++kp_side);
	/* no static level: kept at every cut-off */
	printk("kpapi:bare v=%d\n", 1);
	printk(KERN_DEFAULT "kpapi:kdefault v=%d\n", 2);
	pr_emerg("kpapi:cont a");
	pr_cont("+kpapi_contpart=%d\n", 3);
#ifdef KPAPI_LEVELS
	kprint_emerg("kpapi:cut_kp_0 side=%d", ++kp_side);
	kprint_alert("kpapi:cut_kp_1 side=%d", ++kp_side);
	kprint_crit("kpapi:cut_kp_2 side=%d", ++kp_side);
	kprint_err("kpapi:cut_kp_3 side=%d", ++kp_side);
	kprint_warn("kpapi:cut_kp_4 side=%d", ++kp_side);
	kprint_notice("kpapi:cut_kp_5 side=%d", ++kp_side);
	kprint_info("kpapi:cut_kp_6 side=%d", ++kp_side);
	/* pr_debug(): no side effects while off (and when cut) */
	kprint_debug("kpapi:cut_kp_7 side=%d", kp_side + 1);
	kprint_emerg("kpapi:side_count n=%d want=%d", kp_side, 15);
#else
	pr_emerg("kpapi:side_count n=%d want=%d\n", kp_side, 8);
#endif
}

/* ---- every kprint_<level>() and kprint() ---- */
static void kp_levels(void)
{
#ifdef KPAPI_LEVELS
	enum kprint_loglevel l = KPRINT_DEBUG;

	kprint("kpapi:lvl_default v=%d", 1);
	kprint_emerg("kpapi:lvl_emerg v=%d", 0);
	kprint_alert("kpapi:lvl_alert v=%d", 1);
	kprint_crit("kpapi:lvl_crit v=%d", 2);
	kprint_err("kpapi:lvl_err v=%d", 3);
	kprint_error("kpapi:lvl_error v=%d", 3);
	kprint_warn("kpapi:lvl_warn v=%d", 4);
	kprint_warning("kpapi:lvl_warning v=%d", 4);
	kprint_notice("kpapi:lvl_notice v=%d", 5);
	kprint_info("kpapi:lvl_info v=%s", "six");
	kprint_debug("kpapi:lvl_debug v=%d", 7);
	/* the enum and its aliases */
	kprint_info("kpapi:lvl_enum emerg=%d err=%d error=%d warn=%d warning=%d debug=%d",
		    KPRINT_EMERG, KPRINT_ERR, KPRINT_ERROR, KPRINT_WARN, KPRINT_WARNING, l);
#else
	KPAPI_MISSING("levels");
#endif
}

/* ---- kprint_asm() from assembly (kpapi_asm.S) ---- */
static void kp_asm(void)
{
	int __maybe_unused ret;

#ifdef KPAPI_HAVE_ASM_SYM
	ret = kpapi_asm_call();
	pr_emerg("kpapi:asm_ret ret=%d\n", ret);
#else
	KPAPI_MISSING("kprint_asm");
#endif
#ifdef KPAPI_HAVE_ASM_SITE
	ret = kpapi_asm_site_call();
	pr_emerg("kpapi:asm_site_ret ret=%d\n", ret);
#else
	KPAPI_MISSING("kprint_asm_site");
#endif
}

/* ---- kprint_early() after boot: logs directly ---- */
static void kp_early(void)
{
#ifdef KPAPI_EARLY
	kprint_early(KERN_ERR "kpapi:early_module v=%d", 42);
	kprint_early("kpapi:early_module_default v=%d", 43);
	kpapi_asm_early_call();
#else
	KPAPI_MISSING("kprint_early");
#endif
}

/* ---- groups ---- */
#ifdef KPAPI_GROUPS
/*
 * Buffers are static: a struct kprint_buffer holds its lines, which is too
 * much for the stack of an interrupt handler.
 */
static struct kprint_buffer kp_buf_proc, kp_buf_soft, kp_buf_hard, kp_buf_ovf, kp_buf_abort;
static struct kprint_buffer kp_buf_conc[2], kp_buf_main;

static void kp_ret(const char *name, int g, int ret)
{
	pr_emerg("kpapi:grp_ret name=%s g=%d ret=%d\n", name, g, ret);
}

static void kp_group_proc(void)
{
	int i, ret;

	kprint_buffer_init(&kp_buf_proc, KPRINT_INFO);
	for (i = 1; i <= 3; i++)
		kprint_buffer(&kp_buf_proc, "kpapi:grp_proc i=%d of=%d", i, 3);
	ret = kprint_buffer_flush(&kp_buf_proc);
	kp_ret("proc", 0, ret);
}

#endif /* KPAPI_GROUPS */

/*
 * ---- every kprint_<level>(), kprint(), kprint_asm() (from assembly) and
 * kprint_early() once more, from a timer (softirq) and an hrtimer
 * (hardirq), which with the groups also flush a group each ----
 */
static void kp_levels_in(const char *ctx, int in)
{
#ifdef KPAPI_LEVELS
	kprint("kpapi:ctx_default ctx=%s in=%d", ctx, in);
	kprint_emerg("kpapi:ctx_emerg ctx=%s in=%d", ctx, in);
	kprint_alert("kpapi:ctx_alert ctx=%s in=%d", ctx, in);
	kprint_crit("kpapi:ctx_crit ctx=%s in=%d", ctx, in);
	kprint_err("kpapi:ctx_err ctx=%s in=%d", ctx, in);
	kprint_error("kpapi:ctx_error ctx=%s in=%d", ctx, in);
	kprint_warn("kpapi:ctx_warn ctx=%s in=%d", ctx, in);
	kprint_warning("kpapi:ctx_warning ctx=%s in=%d", ctx, in);
	kprint_notice("kpapi:ctx_notice ctx=%s in=%d", ctx, in);
	kprint_info("kpapi:ctx_info ctx=%s in=%d", ctx, in);
	kprint_debug("kpapi:ctx_debug ctx=%s in=%d", ctx, in);
#endif
#ifdef KPAPI_HAVE_ASM_SYM
	kpapi_asm_ctx_call(ctx);
#endif
#ifdef KPAPI_EARLY
	kprint_early(KERN_ERR "kpapi:ctx_early ctx=%s in=%d", ctx, in);
#endif
}

static struct timer_list kp_timer;
static DECLARE_COMPLETION(kp_timer_done);
static int kp_soft_ret;

static void kp_timer_fn(struct timer_list *t)
{
#ifdef KPAPI_GROUPS
	int i;
#endif

	kp_levels_in("softirq", !!in_softirq());
#ifdef KPAPI_GROUPS
	kprint_buffer_init(&kp_buf_soft, KPRINT_WARNING);
	for (i = 1; i <= 3; i++)
		kprint_buffer(&kp_buf_soft, "kpapi:grp_softirq i=%d in_softirq=%d", i, !!in_softirq());
	kp_soft_ret = kprint_buffer_flush(&kp_buf_soft);
#endif
	complete(&kp_timer_done);
}

static struct hrtimer kp_hrtimer;
static DECLARE_COMPLETION(kp_hrtimer_done);
static int kp_hard_ret;

static enum hrtimer_restart kp_hrtimer_fn(struct hrtimer *t)
{
#ifdef KPAPI_GROUPS
	int i;
#endif

	kp_levels_in("hardirq", !!in_hardirq());
#ifdef KPAPI_GROUPS
	kprint_buffer_init(&kp_buf_hard, KPRINT_ERR);
	for (i = 1; i <= 3; i++)
		kprint_buffer(&kp_buf_hard, "kpapi:grp_hardirq i=%d in_hardirq=%d", i, !!in_hardirq());
	kp_hard_ret = kprint_buffer_flush(&kp_buf_hard);
#endif
	complete(&kp_hrtimer_done);
	return HRTIMER_NORESTART;
}

static void kp_irq_contexts(void)
{
	timer_setup(&kp_timer, kp_timer_fn, 0);
	reinit_completion(&kp_timer_done);
	mod_timer(&kp_timer, jiffies + 1);
	if (!wait_for_completion_timeout(&kp_timer_done, 5 * HZ))
		kp_soft_ret = -ETIMEDOUT;
	del_timer_sync(&kp_timer);
#ifdef KPAPI_GROUPS
	kp_ret("softirq", 0, kp_soft_ret);
#endif

	hrtimer_init(&kp_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	kp_hrtimer.function = kp_hrtimer_fn;
	reinit_completion(&kp_hrtimer_done);
	hrtimer_start(&kp_hrtimer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	if (!wait_for_completion_timeout(&kp_hrtimer_done, 5 * HZ))
		kp_hard_ret = -ETIMEDOUT;
	hrtimer_cancel(&kp_hrtimer);
#ifdef KPAPI_GROUPS
	kp_ret("hardirq", 0, kp_hard_ret);
#endif
}

#ifdef KPAPI_GROUPS

#define KP_OVF_LINES 1000
static void kp_group_overflow_abort(void)
{
	int i, ret;

	/* more lines than any fixed buffer holds: the flush reports the rest */
	kprint_buffer_init(&kp_buf_ovf, KPRINT_NOTICE);
	for (i = 1; i <= KP_OVF_LINES; i++)
		kprint_buffer(&kp_buf_ovf, "kpapi:grp_ovf i=%d pad=%s", i, "0123456789abcdef");
	ret = kprint_buffer_flush(&kp_buf_ovf);
	kp_ret("overflow", KP_OVF_LINES, ret);

	/* an aborted group leaves nothing in the log */
	kprint_buffer_init(&kp_buf_abort, KPRINT_INFO);
	for (i = 1; i <= 3; i++)
		kprint_buffer(&kp_buf_abort, "kpapi:grp_abort i=%d", i);
	kprint_buffer_abort(&kp_buf_abort);
	pr_emerg("kpapi:grp_abort_done\n");
}

/*
 * Two kthreads, one bound to each CPU, log in a tight loop; each flushes a
 * group every KP_CONC_EVERY messages, and the loading thread flushes groups
 * meanwhile.  The host checks that every group is one record with all
 * its lines (nothing from the other CPU in between).
 */
#define KP_CONC_MSGS	240
#define KP_CONC_EVERY	30
#define KP_CONC_LINES	4
static atomic_t kp_conc_left;
static atomic_t kp_conc_running;
static DECLARE_COMPLETION(kp_conc_go);
static DECLARE_COMPLETION(kp_conc_done);

static int kp_conc_fn(void *data)
{
	int cpu = (long)data;
	struct kprint_buffer *b = &kp_buf_conc[cpu & 1];
	int n, i, g = 0, ret;

	wait_for_completion(&kp_conc_go);
	atomic_inc(&kp_conc_running);
	for (n = 0; n < KP_CONC_MSGS; n++) {
		kprint_info("kpapi:noise cpu=%d n=%d", cpu, n);
		if (n % KP_CONC_EVERY == KP_CONC_EVERY / 2) {
			kprint_buffer_init(b, KPRINT_INFO);
			for (i = 1; i <= KP_CONC_LINES; i++)
				kprint_buffer(b, "kpapi:grp_conc cpu=%d g=%d i=%d", cpu, g, i);
			ret = kprint_buffer_flush(b);
			if (ret != KP_CONC_LINES)
				kp_ret("conc", g, ret);
			g++;
		}
	}
	atomic_dec(&kp_conc_running);
	if (atomic_dec_and_test(&kp_conc_left))
		complete(&kp_conc_done);
	return 0;
}

static void kp_group_concurrent(void)
{
	struct task_struct *t;
	long cpu;
	int g, i, ret, started = 0;

	reinit_completion(&kp_conc_go);
	reinit_completion(&kp_conc_done);
	atomic_set(&kp_conc_left, 1);	/* bias, dropped below */
	atomic_set(&kp_conc_running, 0);
	for_each_online_cpu(cpu) {
		if (started == 2)
			break;
		t = kthread_create(kp_conc_fn, (void *)cpu, "kpapi/%ld", cpu);
		if (IS_ERR(t))
			continue;
		kthread_bind(t, cpu);
		atomic_inc(&kp_conc_left);
		wake_up_process(t);
		started++;
	}
	pr_emerg("kpapi:conc_started threads=%d\n", started);
	complete_all(&kp_conc_go);
	/* flush groups from here while the kthreads log */
	for (g = 0; g < 6; g++) {
		kprint_buffer_init(&kp_buf_main, KPRINT_INFO);
		for (i = 1; i <= KP_CONC_LINES; i++)
			kprint_buffer(&kp_buf_main, "kpapi:grp_main g=%d i=%d running=%d", g, i,
				      atomic_read(&kp_conc_running));
		ret = kprint_buffer_flush(&kp_buf_main);
		if (ret != KP_CONC_LINES)
			kp_ret("main", g, ret);
		udelay(200);
	}
	if (atomic_dec_and_test(&kp_conc_left))
		complete(&kp_conc_done);
	wait_for_completion_timeout(&kp_conc_done, 30 * HZ);
	pr_emerg("kpapi:conc_done\n");
}
#endif /* KPAPI_GROUPS */

static void kp_groups(void)
{
#ifdef KPAPI_GROUPS
	kp_group_proc();
#endif
	kp_irq_contexts();
#ifdef KPAPI_GROUPS
	kp_group_overflow_abort();
	kp_group_concurrent();
#else
	KPAPI_MISSING("kprint_buffer");
#endif
}

/* ---- ring flood for the EMERG reserve ---- */

/*
 * After the flood: read the whole log as a kmsg dumper (pstore) does, with
 * kmsg_dump_get_buffer() in 4 KiB blocks, youngest block first.  The EMERG
 * record the flood overwrote must come back from the reserve, in the last
 * (oldest) block.
 */
static void kp_dump_buffer(void)
{
	const size_t size = 4096;
	struct kmsg_dump_iter iter;
	int blocks = 0, found = -1;
	char *buf;
	size_t len;

	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return;
	kmsg_dump_rewind(&iter);
	while (blocks < 10000 &&
	       kmsg_dump_get_buffer(&iter, false, buf, size, &len)) {
		blocks++;
		if (strnstr(buf, "kpapi:reserve_emerg marker=4711", len))
			found = blocks;
	}
	kfree(buf);
	pr_emerg("kpapi:reserve_dumpbuf blocks=%d found_in=%d\n", blocks, found);
}

static int kp_flood_set(const char *val, const struct kernel_param *kp)
{
	int ret = param_set_int(val, kp);
	int i, n = *(int *)kp->arg;

	if (ret)
		return ret;
#ifdef KPAPI_LEVELS
	kprint_emerg("kpapi:reserve_emerg marker=%d", 4711);
	for (i = 0; i < n; i++)
		kprint_info("kpapi:flood i=%d pad=%s", i,
			    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	kprint_emerg("kpapi:reserve_after n=%d", n);
	kp_dump_buffer();
#else
	pr_emerg("kpapi:reserve_emerg marker=%d\n", 4711);
	for (i = 0; i < n; i++)
		pr_info("kpapi:flood i=%d pad=%s\n", i,
			"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	pr_emerg("kpapi:reserve_after n=%d\n", n);
#endif
	return 0;
}

static const struct kernel_param_ops kp_flood_ops = {
	.set = kp_flood_set,
	.get = param_get_int,
};

static int flood;
module_param_cb(flood, &kp_flood_ops, &flood, 0644);
MODULE_PARM_DESC(flood, "emit an EMERG record, then N INFO records (ring exhaustion)");

static int __init kp_init(void)
{
	pr_emerg("kpapi:start\n");
	kp_levels();
	kp_asm();
	kp_early();
	kp_cut_messages();
	kpapi_keep_messages();
	kp_groups();
	pr_emerg("kpapi:done\n");
	return 0;
}

static void __exit kp_exit(void)
{
}

module_init(kp_init);
module_exit(kp_exit);
MODULE_DESCRIPTION("Exercises the kprint API (issue 4) for the boot test");
MODULE_LICENSE("GPL");
