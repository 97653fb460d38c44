// SPDX-License-Identifier: GPL-2.0
/*
 * Part of the kprint_api test module.  Kbuild compiles this file with
 * -DKPRINT_KEEP_FILE (CFLAGS_kpapi_keep.o), so all its messages survive
 * CONFIG_KPRINT_MIN_LOGLEVEL; kpapi.c has the same messages ("kpapi:cut_*")
 * without the switch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/printk.h>
#if __has_include(<linux/kprint.h>)
#include <linux/kprint.h>
#endif

#include "kpapi.h"

void kpapi_keep_messages(void)
{
#ifndef KPRINT_KEEP_FILE
	pr_emerg("kpapi:api_missing what=%s\n", "KPRINT_KEEP_FILE (Kbuild did not set it)");
#endif
	pr_emerg("kpapi:keep_pr_0 v=%d\n", 0);
	pr_alert("kpapi:keep_pr_1 v=%d\n", 1);
	pr_crit("kpapi:keep_pr_2 v=%d\n", 2);
	pr_err("kpapi:keep_pr_3 v=%d\n", 3);
	pr_warn("kpapi:keep_pr_4 v=%d\n", 4);
	pr_notice("kpapi:keep_pr_5 v=%d\n", 5);
	pr_info("kpapi:keep_pr_6 v=%d\n", 6);
	printk(KERN_DEBUG "kpapi:keep_pr_7 v=%d\n", 7);
#if defined(kprint_info) && defined(kprint_emerg) && defined(kprint_debug)
	kprint_emerg("kpapi:keep_kp_0 v=%d", 0);
	kprint_alert("kpapi:keep_kp_1 v=%d", 1);
	kprint_crit("kpapi:keep_kp_2 v=%d", 2);
	kprint_err("kpapi:keep_kp_3 v=%d", 3);
	kprint_warn("kpapi:keep_kp_4 v=%d", 4);
	kprint_notice("kpapi:keep_kp_5 v=%d", 5);
	kprint_info("kpapi:keep_kp_6 v=%d", 6);
	kprint_debug("kpapi:keep_kp_7 v=%d", 7);
#endif
}
