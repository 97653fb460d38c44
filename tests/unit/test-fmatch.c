// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-fmatch.c - the matcher of recovered call sites: the kernel's
 * prefixes (dev_printk, netdev_printk, pr_fmt), each conversion class
 * (%pV, %*ph, %pI4, %pM, %.*s, %*d, %#x...), every ambiguity class, the
 * arguments only when the text reads one way, partial and cut texts,
 * texts that match nothing, and a crafted text that must stay cheap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stage/fidx.h"
#include "stage/fmatch.h"
#include "fidx-mem.h"
#include "tap.h"

struct site {
	const char *fmt;
	enum kd_fidx_family fam;
	const char *file, *func, *module;
	unsigned int line;
};

/* the index of @n sites of this file's kind (see test_fidx_build()) */
static struct kd_fidx *build(const struct site *s, size_t n)
{
	struct kd_fidx_site *t = calloc(n, sizeof(*t));
	struct kd_fidx *x;

	if (!t)
		abort();
	for (size_t i = 0; i < n; i++)
		t[i] = (struct kd_fidx_site){
			.fmt = s[i].fmt, .fmt_len = strlen(s[i].fmt), .family = s[i].fam,
			.file = s[i].file, .func = s[i].func, .module = s[i].module,
			.line = s[i].line, .level = '6',
		};
	x = test_fidx_build(t, n);
	free(t);
	return x;
}

static const struct site sites[] = {
	{ "Memory: %luK/%luK available", KD_FIDX_PLAIN, "mm/mm_init.c", "mem_init_print_info", "mm_init", 2642 },
	{ "no codecs found!", KD_FIDX_DEV, "sound/pci/hda/hda_intel.c", "azx_probe_codecs", "snd_hda_intel", 1800 },
	{ "NIC Link is Up %d Mbps %s Duplex", KD_FIDX_NETDEV, "drivers/net/e1000e/netdev.c", "e1000_print_link_info", "e1000e", 4900 },
	{ "e1000e: Intel(R) PRO/1000 Network Driver", KD_FIDX_PLAIN, "drivers/net/e1000e/netdev.c", "e1000_init_module", "e1000e", 7900 },
	{ "kptest:%s %pV", KD_FIDX_PLAIN, "kp.c", "kp_vaf", "kptest", 52 },
	{ "kptest:hello %d", KD_FIDX_PLAIN, "kp.c", "kp_hello", "kptest", 60 },
	{ "data: %*ph", KD_FIDX_PLAIN, "d.c", "dump", "d", 1 },
	{ "mac data: %*phC end", KD_FIDX_PLAIN, "d.c", "dump2", "d", 2 },
	{ "addr %pI4 port %u", KD_FIDX_PLAIN, "net.c", "show", "net", 3 },
	{ "mac %pM up", KD_FIDX_PLAIN, "net.c", "mac", "net", 4 },
	{ "root bus resource %pR%s", KD_FIDX_DEV, "drivers/pci/probe.c", "pci_register_host_bridge",
	  "probe", 1052 },
	{ "name <%.*s>", KD_FIDX_PLAIN, "n.c", "name", "n", 5 },
	{ "val=%*d;", KD_FIDX_PLAIN, "v.c", "val", "v", 6 },
	{ "left=%-5d|", KD_FIDX_PLAIN, "v.c", "left", "v", 7 },
	{ "flags %#x id %08x", KD_FIDX_PLAIN, "v.c", "flags", "v", 8 },
	/* two drivers, one message */
	{ "timeout waiting for %s", KD_FIDX_DEV, "a.c", "a_wait", "moda", 10 },
	{ "timeout waiting for %s", KD_FIDX_DEV, "b.c", "b_wait", "modb", 20 },
	/* formats that are prefixes of each other */
	{ "probe of %s", KD_FIDX_PLAIN, "p.c", "probe_short", "p", 30 },
	{ "probe of %s failed", KD_FIDX_PLAIN, "q.c", "probe_long", "q", 40 },
	/* acpi_handle_info(): "ACPI: <path>: " */
	{ "Enabled at IRQ %d", KD_FIDX_WRAP, "drivers/acpi/pci_link.c", "acpi_pci_link_allocate_irq", "", 593 },
	/* sd_printk(): dev_printk()'s prefix, then the disk's name in brackets */
	{ "Write Protect is %s", KD_FIDX_DEV, "drivers/scsi/sd.c", "sd_read_write_protect_flag", "sd_mod", 3017 },
	/* vt.c: a whole format, and the start of a pr_cont() line that reads its text too */
	{ "Console: %s %s %dx%d", KD_FIDX_PLAIN, "drivers/tty/vt/vt.c", "con_init", "vt", 3676 },
	{ "Console: switching ", KD_FIDX_PLAIN, "drivers/tty/vt/vt.c", "do_bind_con_driver", "vt", 3846 },
	/* one with far fewer literal bytes: no competitor */
	{ "ACPI: %s", KD_FIDX_PLAIN, "drivers/acpi/x.c", "acpi_x", "x", 50 },
	{ "ACPI: PM: Preparing to enter system sleep state S%d", KD_FIDX_PLAIN, "drivers/acpi/sleep.c", "acpi_sleep_prepare", "sleep", 60 },
	/* ACPICA's, after "ACPI: ", "ACPI Error: "... (the format with ACPICA's additions) */
	{ "%u ACPI AML tables successfully acquired and loaded", KD_FIDX_ACPI, "drivers/acpi/acpica/tbxfload.c", "acpi_tb_load_namespace", "acpi", 206 },
	{ "%s, Could not install handler (%8.8X/%s-%u)", KD_FIDX_ACPI, "drivers/acpi/acpica/evx.c", "acpi_ev_x", "acpi", 300 },
	/* dev_err_probe(): after "driver device: error <err>: " */
	{ "failed to get clock %d", KD_FIDX_DEVPROBE, "drivers/clk/c.c", "c_probe", "clkc", 140 },
	/* subsystem wrappers: after the first ": ", or after DRM's "[drm:f] " */
	{ "first mount of filesystem %pU", KD_FIDX_WRAP, "fs/btrfs/disk-io.c", "open_ctree", "btrfs", 3218 },
	{ "Ending clean mount", KD_FIDX_WRAP, "fs/xfs/xfs_log.c", "xfs_log_mount_finish", "xfs", 800 },
	{ "Failed to find connector for crtc %d", KD_FIDX_WRAP, "drivers/gpu/drm/d.c", "d_crtc", "drm", 500 },
	{ "*ERROR* ring %s timeout", KD_FIDX_WRAP, "drivers/gpu/drm/r.c", "r_hang", "r", 510 },
	/* the wireless drivers' "%pV" wrappers: ath10k_warn(), IWL_DEBUG_INFO(), brcmf_err(), ... */
	{ "failed to wake target: %d", KD_FIDX_DEV, "drivers/net/wireless/ath/ath10k/pci.c",
	  "ath10k_pci_wake_wait", "ath10k_pci", 1103 },
	{ "Alive ucode status 0x%04x", KD_FIDX_WRAP, "drivers/net/wireless/intel/iwlwifi/mvm/fw.c",
	  "iwl_alive_fn", "iwlmvm", 180 },
	{ "firmware request %s size %zu", KD_FIDX_WRAP, "drivers/net/wireless/ath/ath11k/core.c",
	  "ath11k_core_firmware_request", "ath11k", 1060 },
	{ "Unable to reset channel, reset status %d", KD_FIDX_WRAP,
	  "drivers/net/wireless/ath/ath9k/main.c", "ath_reset_internal", "ath9k", 290 },
	{ "Failed to get firmware %s", KD_FIDX_WRAP,
	  "drivers/net/wireless/broadcom/brcm80211/brcmfmac/firmware.c", "brcmf_fw_get_firmwares",
	  "brcmfmac", 700 },
	{ "%s for peer %pM on vdev %d flags 0x%X, type = %d, num_sta %d", KD_FIDX_WRAP,
	  "drivers/net/wireless/ath/ath11k/mac.c", "ath11k_mac_op_set_key", "ath11k", 4437 },
	{ "Enter, idx=%d", KD_FIDX_WRAP, "drivers/net/wireless/broadcom/brcm80211/brcmfmac/cfg80211.c",
	  "brcmf_cfg80211_dump_station", "brcmfmac", 3250 },
	/*
	 * The next "%pV" wrappers' callers (rtw_dbg(), rsi_dbg(), ath6kl_err(),
	 * wil_err(), ibdev_err(), ubi_err(), ubifs_msg(), p9_debug(),
	 * QEDF_ERR()), and the wrappers' own formats, which read the same texts
	 */
	{ "sta %pM joined with macid %d", KD_FIDX_DEV, "drivers/net/wireless/realtek/rtw88/main.c",
	  "rtw_sta_add", "rtw88_core", 354 },
	{ "%s: Failed to add extended descriptor", KD_FIDX_WRAP,
	  "drivers/net/wireless/rsi/rsi_91x_hal.c", "rsi_prepare_mgmt_desc", "rsi_91x", 83 },
	{ "rsi_91x: %pV", KD_FIDX_PLAIN, "drivers/net/wireless/rsi/rsi_91x_main.c", "rsi_dbg",
	  "rsi_91x", 66 },
	{ "failed to connect to %s service status:%d", KD_FIDX_WRAP,
	  "drivers/net/wireless/ath/ath6kl/init.c", "ath6kl_connectservice", "ath6kl_core", 293 },
	{ "%sath6kl: %pV", KD_FIDX_PLAIN, "drivers/net/wireless/ath/ath6kl/debug.c", "ath6kl_printk",
	  "ath6kl_core", 50 },
	{ "%s: disconnect error %d", KD_FIDX_NETDEV, "drivers/net/wireless/ath/wil6210/main.c",
	  "wil_disconnect_worker", "wil6210", 486 },
	{ "Failed to set ib netdev, ret %d", KD_FIDX_NETDEV, "drivers/infiniband/hw/mana/device.c",
	  "mana_ib_probe", "mana_ib", 131 },
	{ "qp#%d %s: invalid num_sge in SRQ entry", KD_FIDX_NETDEV,
	  "drivers/infiniband/sw/rxe/rxe_resp.c", "get_srq_wqe", "rdma_rxe", 285 },
	{ "inconsistent VID header at PEB %d", KD_FIDX_WRAP, "drivers/mtd/ubi/attach.c",
	  "validate_vid_hdr", "ubi", 377 },
	{ "attaching mtd%d", KD_FIDX_WRAP, "drivers/mtd/ubi/build.c", "ubi_attach_mtd_dev", "ubi", 987 },
	{ "ubi%d: %pV", KD_FIDX_PLAIN, "drivers/mtd/ubi/misc.c", "ubi_msg", "ubi", 118 },
	{ "recovery needed", KD_FIDX_WRAP, "fs/ubifs/super.c", "mount_ubifs", "ubifs", 1399 },
	{ "reading %d bytes from LEB %d:%d failed, error %d", KD_FIDX_WRAP, "fs/ubifs/io.c",
	  "ubifs_leb_read", "ubifs", 98 },
	{ "UBIFS (ubi%d:%d): %pV", KD_FIDX_PLAIN, "fs/ubifs/misc.c", "ubifs_msg", "ubifs", 51 },
	{ ">>> TVERSION msize %d protocol %d", KD_FIDX_WRAP, "net/9p/client.c", "p9_client_version",
	  "9pnet", 919 },
	{ "Invalid error code %d", KD_FIDX_WRAP, "net/9p/client.c", "safe_errno", "9pnet", 100 },
	{ "9pnet: (%8.8d) %pV", KD_FIDX_PLAIN, "net/9p/mod.c", "_p9_debug", "9pnet", 48 },
	{ "9pnet: -- %s (%d): %pV", KD_FIDX_PLAIN, "net/9p/mod.c", "_p9_debug", "9pnet", 50 },
	{ "Link not up.", KD_FIDX_WRAP, "drivers/scsi/qedf/qedf_main.c", "qedf_initiate_fipvlan_req",
	  "qedf", 140 },
	{ "[%s]:[%s:%d]:%d: %pV", KD_FIDX_PLAIN, "drivers/scsi/qedf/qedf_dbg.c", "qedf_dbg_err",
	  "qedf", 20 },
	/*
	 * The last wrappers' callers (QEDI_ERR(), en_err(), ATH5K_ERR(),
	 * ATH5K_DBG(), nilfs_err(), mlog(), mlog_errno(), tda_err(),
	 * jfs_error(), lpfc_printf_log()), and the wrappers' own formats
	 */
	{ "Recv Unknown Event %u", KD_FIDX_WRAP, "drivers/scsi/qedi/qedi_main.c",
	  "qedi_iscsi_event_cb", "qedi", 130 },
	{ "[%s]:[%s:%d]:%d: %pV", KD_FIDX_PLAIN, "drivers/scsi/qedi/qedi_dbg.c", "qedi_dbg_err",
	  "qedi", 22 },
	{ "Error detaching flow. rc = %d", KD_FIDX_WRAP, "drivers/net/ethernet/mellanox/mlx4/en_netdev.c",
	  "mlx4_en_filter_work", "mlx4_en", 262 },
	{ "%s%s: %s: %pV", KD_FIDX_PLAIN, "drivers/net/ethernet/mellanox/mlx4/en_main.c", "en_print",
	  "mlx4_en", 92 },
	{ "%s%s: %s: Port %d: %pV", KD_FIDX_PLAIN, "drivers/net/ethernet/mellanox/mlx4/en_main.c",
	  "en_print", "mlx4_en", 95 },
	{ "can't alloc skbuff of size %u", KD_FIDX_WRAP, "drivers/net/wireless/ath/ath5k/base.c",
	  "ath5k_rx_skb_alloc", "ath5k", 610 },
	{ "(%s:%d): RX filter 0x%x", KD_FIDX_WRAP, "drivers/net/wireless/ath/ath5k/base.c",
	  "ath5k_update_bssid_mask_and_opmode", "ath5k", 571 },
	{ "%sath5k: %s: %pV", KD_FIDX_PLAIN, "drivers/net/wireless/ath/ath5k/base.c", "_ath5k_printk",
	  "ath5k", 3243 },
	{ "unable to write superblock: err=%d", KD_FIDX_WRAP, "fs/nilfs2/super.c", "nilfs_sync_super",
	  "nilfs2", 193 },
	{ "%c%cNILFS (%s): %pV", KD_FIDX_PLAIN, "fs/nilfs2/super.c", "__nilfs_msg", "nilfs2", 77 },
	{ "Checksum failed for extent block %llu", KD_FIDX_WRAP, "fs/ocfs2/alloc.c",
	  "ocfs2_validate_extent_block", "ocfs2", 894 },
	{ "status = %lld", KD_FIDX_WRAP, "fs/ocfs2/super.c", "ocfs2_fill_super", "ocfs2", 1005 },
	{ "get_block on system inode 0x%p (%lu)", KD_FIDX_WRAP, "fs/ocfs2/aops.c", "ocfs2_get_block",
	  "ocfs2", 149 },
	{ "%s(%s,%u,%u):%s:%d %s%pV", KD_FIDX_PLAIN, "fs/ocfs2/cluster/masklog.c", "__mlog_printk",
	  "ocfs2_nodemanager", 77 },
	{ "ERROR: i2c_transfer returned: %d", KD_FIDX_WRAP, "drivers/media/tuners/tda18271-common.c",
	  "tda18271_read_regs", "tda18271", 130 },
	{ "%s%s: [%d-%04x|%c] %pV", KD_FIDX_PLAIN, "drivers/media/tuners/tda18271-common.c",
	  "_tda_printk", "tda18271", 716 },
	{ "xtSearch failed", KD_FIDX_WRAP, "fs/jfs/jfs_xtree.c", "xtUpdate", "jfs", 1823 },
	{ "ERROR: (device %s): %ps: %pV", KD_FIDX_PLAIN, "fs/jfs/super.c", "jfs_error", "jfs", 93 },
	{ "%d:1303 Link Up Event x%x received Data: x%x x%x x%x x%x x%x", KD_FIDX_DEV,
	  "drivers/scsi/lpfc/lpfc_hbadisc.c", "lpfc_mbx_cmpl_read_topology", "lpfc", 3799 },
	{ "%d:(%d):0116 Xmit ELS command x%x to remote NPORT x%x I/O tag: x%x, port state:x%x "
	  "rpi x%x fc_flag:x%lx", KD_FIDX_DEV, "drivers/scsi/lpfc/lpfc_els.c", "lpfc_prep_els_iocb",
	  "lpfc", 298 },
	/* %s of a width and a precision no wider: exactly that wide */
	{ "%-4.4s len %06X (v%.2d %-6.6s %-8.8s)", KD_FIDX_PLAIN, "t.c", "tbl", "t", 130 },
	/* equal literal bytes */
	{ "link %s up", KD_FIDX_PLAIN, "l1.c", "l1", "l1", 70 },
	{ "link up %s", KD_FIDX_PLAIN, "l2.c", "l2", "l2", 80 },
	/* arguments that split two ways */
	{ "copy %s to %s", KD_FIDX_PLAIN, "c.c", "copy", "c", 90 },
	/* partial and cut */
	{ "Booting CPU %d", KD_FIDX_PLAIN, "smp.c", "boot_cpu", "smp", 100 },
	{ "long message <%s>", KD_FIDX_PLAIN, "long.c", "longf", "long", 110 },
	/* crafted */
	{ "x%s %s %s %s %s %s %s %s %s %s %s %s y", KD_FIDX_PLAIN, "evil.c", "evil", "evil", 120 },
};

static struct kd_fidx *x;
static struct kd_fmatch_result r;

static enum kd_fmatch_status match(const char *text)
{
	const struct kd_fidx *const idx[1] = { x };

	return kd_fmatch_text(idx, 1, text, strlen(text), &r);
}

/* The winner's format, file ("" when not claimed). */
static const char *fmt_of(void)
{
	struct kd_fidx_entry e;

	kd_fidx_get(x, r.id, &e);
	return e.fmt;
}

static const char *file_of(void)
{
	struct kd_fidx_entry e;

	if (!r.same_file)
		return "";
	kd_fidx_get(x, r.id, &e);
	return e.file;
}

static bool arg_is(const char *text, int k, const char *want)
{
	return k < r.nargs && r.arg[k].len == strlen(want) &&
	       memcmp(text + r.arg[k].off, want, r.arg[k].len) == 0;
}

static void expect(const char *text, enum kd_fmatch_status st, const char *fmt,
		   const char *file, const char *const *args, const char *name)
{
	enum kd_fmatch_status got = match(text);
	bool ok = got == st;

	if (ok && fmt)
		ok = strcmp(fmt_of(), fmt) == 0;
	if (ok && file)
		ok = strcmp(file_of(), file) == 0;
	if (ok && args) {
		int n = 0;

		while (args[n])
			n++;
		ok = r.nargs == n;
		for (int k = 0; ok && k < n; k++)
			ok = arg_is(text, k, args[k]);
	}
	if (!tap_ok(ok, "%s", name))
		tap_diag("status %d, format \"%s\", file \"%s\", nargs %d, sites %u",
			 got, got != KD_FMATCH_NONE ? fmt_of() : "", got != KD_FMATCH_NONE ?
			 file_of() : "", r.nargs, r.nsites);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NOARGS ((const char *const[]){ NULL })

static void check_prefixes(void)
{
	expect("Memory: 242396K/261624K available", KD_FMATCH_FULL,
	       "Memory: %luK/%luK available", "mm/mm_init.c", ARGS("242396", "261624"),
	       "plain printk: format, site and arguments");
	tap_ok(r.same_line && r.same_func && r.same_module && r.nsites == 1 && r.start == 0,
	       "plain printk: line, function, module, one site, from the start");
	expect("snd_hda_intel 0000:00:1b.0: no codecs found!", KD_FMATCH_FULL,
	       "no codecs found!", "sound/pci/hda/hda_intel.c", NOARGS,
	       "dev_printk: through \"driver device: \"");
	tap_is_int((long long)r.start, 28, "dev_printk: the format starts after the prefix");
	expect(" 0000:00:1b.0: no codecs found!", KD_FMATCH_FULL, "no codecs found!", NULL, NULL,
	       "dev_printk: a device without a driver name");
	expect("(NULL device *): no codecs found!", KD_FMATCH_FULL, "no codecs found!", NULL, NULL,
	       "dev_printk: a NULL device");
	expect("no codecs found!", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "dev_printk: a dev_*() format does not match without the device prefix");
	expect("e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex", KD_FMATCH_FULL,
	       "NIC Link is Up %d Mbps %s Duplex", "drivers/net/e1000e/netdev.c",
	       ARGS("1000", "Full"), "netdev_printk: \"driver device ifname: \"");
	expect("eth0: NIC Link is Up 100 Mbps Half Duplex", KD_FMATCH_FULL,
	       "NIC Link is Up %d Mbps %s Duplex", NULL, ARGS("100", "Half"),
	       "netdev_printk: a device without a parent, \"ifname: \"");
	expect("e1000e 0000:00:19.0 eth0 (unregistering): NIC Link is Up 10 Mbps Half Duplex",
	       KD_FMATCH_FULL, "NIC Link is Up %d Mbps %s Duplex", NULL, ARGS("10", "Half"),
	       "netdev_printk: with netdev_reg_state()");
	expect("ACPI: 1 ACPI AML tables successfully acquired and loaded", KD_FMATCH_FULL,
	       "%u ACPI AML tables successfully acquired and loaded", "drivers/acpi/acpica/tbxfload.c",
	       ARGS("1"), "ACPICA: after \"ACPI: \"");
	tap_is_int((long long)r.start, 6, "ACPICA: the format starts after the prefix");
	expect("ACPI Error: AE_NOT_FOUND, Could not install handler (20240827/evx-301)",
	       KD_FMATCH_FULL, "%s, Could not install handler (%8.8X/%s-%u)",
	       "drivers/acpi/acpica/evx.c", ARGS("AE_NOT_FOUND", "20240827", "evx", "301"),
	       "ACPICA: after \"ACPI Error: \", the exception's name and the suffix as arguments");
	expect("clkc 1-0010: error -EPROBE_DEFER: failed to get clock 2", KD_FMATCH_FULL,
	       "failed to get clock %d", "drivers/clk/c.c", ARGS("2"),
	       "dev_err_probe(): after \"driver device: error <name>: \"");
	expect("clkc 1-0010: error -22: failed to get clock 3", KD_FMATCH_FULL,
	       "failed to get clock %d", "drivers/clk/c.c", ARGS("3"),
	       "dev_err_probe(): after \"error <number>: \" (no CONFIG_SYMBOLIC_ERRNAME)");
	expect("clkc 1-0010: failed to get clock 3", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "dev_err_probe(): not without \"error <err>: \"");
	expect("BTRFS info (device vdb): first mount of filesystem 96553643-543f-480a-8338-046f501b6df0",
	       KD_FMATCH_FULL, "first mount of filesystem %pU", "fs/btrfs/disk-io.c",
	       ARGS("96553643-543f-480a-8338-046f501b6df0"), "btrfs: after \"BTRFS info (device vdb): \"");
	tap_is_int((long long)r.start, 25, "btrfs: the format starts after the prefix");
	expect("XFS (vdc): Ending clean mount", KD_FMATCH_FULL, "Ending clean mount",
	       "fs/xfs/xfs_log.c", NOARGS, "XFS: after \"XFS (vdc): \"");
	expect("Ending clean mount", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "a wrapper's format does not match without a prefix");
	expect("[drm:d_crtc [d]] *ERROR* Failed to find connector for crtc 3", KD_FMATCH_FULL,
	       "Failed to find connector for crtc %d", "drivers/gpu/drm/d.c", ARGS("3"),
	       "DRM_ERROR(): after \"[drm:f [mod]] *ERROR* \"");
	expect("r 0000:00:02.0: [drm:r_hang] *ERROR* ring gfx timeout", KD_FMATCH_FULL,
	       "*ERROR* ring %s timeout", "drivers/gpu/drm/r.c", ARGS("gfx"),
	       "DRM_DEV_ERROR(): after the device and \"[drm:f] \", \"*ERROR* \" the format's");
	expect("[drm] Failed to find connector for crtc 3", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "\"[drm] \" is no DRM_ERROR() prefix");
	expect("ACPI: \\_SB_.LNKB: Enabled at IRQ 10", KD_FMATCH_FULL, "Enabled at IRQ %d",
	       "drivers/acpi/pci_link.c", ARGS("10"), "acpi_handle_info(): after \"ACPI: <path>: \"");
	expect("sd 0:0:0:0: [sda] Write Protect is off", KD_FMATCH_FULL, "Write Protect is %s",
	       "drivers/scsi/sd.c", ARGS("off"), "sd_printk(): after the device and \"[disk] \"");
	expect("sd 0:0:0:0: Write Protect is off", KD_FMATCH_FULL, "Write Protect is %s",
	       "drivers/scsi/sd.c", ARGS("off"), "sd_printk() without a disk: after the device");
	expect("sd 0:0:0:0: [sd a] Write Protect is off", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "sd_printk(): no blank in the disk's name");
	expect("ath10k_pci 0000:02:00.0: failed to wake target: -110", KD_FMATCH_FULL,
	       "failed to wake target: %d", "drivers/net/wireless/ath/ath10k/pci.c", ARGS("-110"),
	       "ath10k_warn(): after \"driver device: \"");
	expect("failed to wake target: -110", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ath10k_warn(): not without the device");
	expect("iwlwifi 0000:00:14.3: iwl_alive_fn Alive ucode status 0x0001", KD_FMATCH_FULL,
	       "Alive ucode status 0x%04x", "drivers/net/wireless/intel/iwlwifi/mvm/fw.c",
	       ARGS("0001"), "IWL_DEBUG_INFO(): after the device and the function's name");
	tap_is_int((long long)r.start, 35, "IWL_DEBUG_INFO(): the format starts after the function");
	expect("Alive ucode status 0x0001", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "IWL_DEBUG_INFO(): not without a prefix");
	expect("iwlwifi 0000:00:14.3: iwl_alive_fn and Alive ucode status 0x0001", KD_FMATCH_NONE,
	       NULL, NULL, NULL, "IWL_DEBUG_INFO(): one word between the prefix and the format, "
	       "not two");
	expect("ath11k_pci 0000:03:00.0: boot firmware request ath11k/QCA6390/hw2.0/amss.bin "
	       "size 4796416", KD_FMATCH_FULL, "firmware request %s size %zu",
	       "drivers/net/wireless/ath/ath11k/core.c",
	       ARGS("ath11k/QCA6390/hw2.0/amss.bin", "4796416"), "ath11k_dbg(): after its debug mask");
	/* a reading from the first ": " comes first: the word is the %s's too */
	expect("ath11k_pci 0000:03:00.0: mac SET_KEY for peer 00:11:22:33:44:55 on vdev 0 "
	       "flags 0x1, type = 2, num_sta 1", KD_FMATCH_FULL,
	       "%s for peer %pM on vdev %d flags 0x%X, type = %d, num_sta %d",
	       "drivers/net/wireless/ath/ath11k/mac.c",
	       ARGS("mac SET_KEY", "00:11:22:33:44:55", "0", "1", "2", "1"),
	       "ath11k_dbg(): a format that starts with %s reads the debug mask too");
	expect("ath: phy0: Unable to reset channel, reset status -5", KD_FMATCH_FULL,
	       "Unable to reset channel, reset status %d", "drivers/net/wireless/ath/ath9k/main.c",
	       ARGS("-5"), "ath_err(): after \"ath: phy0: \"");
	expect("ath: Unable to reset channel, reset status -5", KD_FMATCH_FULL,
	       "Unable to reset channel, reset status %d", "drivers/net/wireless/ath/ath9k/main.c",
	       ARGS("-5"), "ath_err(): after \"ath: \" (no wiphy)");
	expect("brcmfmac: brcmf_fw_get_firmwares: Failed to get firmware brcm/brcmfmac43455-sdio.bin",
	       KD_FMATCH_FULL, "Failed to get firmware %s",
	       "drivers/net/wireless/broadcom/brcm80211/brcmfmac/firmware.c",
	       ARGS("brcm/brcmfmac43455-sdio.bin"), "brcmf_err(): after \"brcmfmac: <function>: \"");
	expect("brcmfmac: brcmf_cfg80211_dump_station Enter, idx=3", KD_FMATCH_FULL,
	       "Enter, idx=%d", "drivers/net/wireless/broadcom/brcm80211/brcmfmac/cfg80211.c",
	       ARGS("3"), "brcmf_dbg(): after \"brcmfmac: <function> \"");
	expect("rtw_8822ce 0000:02:00.0: sta 00:11:22:33:44:55 joined with macid 1", KD_FMATCH_FULL,
	       "sta %pM joined with macid %d", "drivers/net/wireless/realtek/rtw88/main.c",
	       ARGS("00:11:22:33:44:55", "1"), "rtw_dbg(): after \"driver device: \"");
	expect("sta 00:11:22:33:44:55 joined with macid 1", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "rtw_dbg(): not without the device");
	expect("rsi_91x: rsi_prepare_mgmt_desc: Failed to add extended descriptor", KD_FMATCH_FULL,
	       "%s: Failed to add extended descriptor", "drivers/net/wireless/rsi/rsi_91x_hal.c",
	       ARGS("rsi_prepare_mgmt_desc"), "rsi_dbg(): after \"rsi_91x: \", not its own %pV");
	expect("rsi_prepare_mgmt_desc: Failed to add extended descriptor", KD_FMATCH_NONE, NULL, NULL,
	       NULL, "rsi_dbg(): not without \"rsi_91x: \"");
	expect("ath6kl: failed to connect to htt service status:3", KD_FMATCH_FULL,
	       "failed to connect to %s service status:%d", "drivers/net/wireless/ath/ath6kl/init.c",
	       ARGS("htt", "3"), "ath6kl_err(): after \"ath6kl: \", not its own %pV");
	expect("failed to connect to htt service status:3", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ath6kl_err(): not without \"ath6kl: \"");
	expect("wil6210 0000:01:00.0 wlan0: wil_disconnect_worker: disconnect error -110",
	       KD_FMATCH_FULL, "%s: disconnect error %d", "drivers/net/wireless/ath/wil6210/main.c",
	       ARGS("wil_disconnect_worker", "-110"),
	       "wil_err(): after the net device's prefix, the function an argument");
	expect("wil_disconnect_worker: disconnect error -110", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "wil_err(): not without the net device's prefix");
	expect("mana_ib mana.rdma.0 mana_0: Failed to set ib netdev, ret -22", KD_FMATCH_FULL,
	       "Failed to set ib netdev, ret %d", "drivers/infiniband/hw/mana/device.c", ARGS("-22"),
	       "ibdev_err(): after \"driver device ibdev: \"");
	expect("rxe0: qp#17 get_srq_wqe: invalid num_sge in SRQ entry", KD_FMATCH_FULL,
	       "qp#%d %s: invalid num_sge in SRQ entry", "drivers/infiniband/sw/rxe/rxe_resp.c",
	       ARGS("17", "get_srq_wqe"), "rxe_dbg_qp(): after \"ibdev: \" (no parent)");
	expect("Failed to set ib netdev, ret -22", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ibdev_err(): not without the prefix");
	expect("ubi0 error: validate_vid_hdr: inconsistent VID header at PEB 93", KD_FMATCH_FULL,
	       "inconsistent VID header at PEB %d", "drivers/mtd/ubi/attach.c", ARGS("93"),
	       "ubi_err(): after \"ubi0 error: <function>: \"");
	expect("ubi0: attaching mtd3", KD_FMATCH_FULL, "attaching mtd%d", "drivers/mtd/ubi/build.c",
	       ARGS("3"), "ubi_msg(): after \"ubi0: \", not its own %pV");
	expect("inconsistent VID header at PEB 93", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ubi_err(): not without its prefix");
	expect("UBIFS (ubi0:0): recovery needed", KD_FMATCH_FULL, "recovery needed",
	       "fs/ubifs/super.c", NOARGS, "ubifs_msg(): after \"UBIFS (ubi0:0): \", not its own %pV");
	expect("UBIFS error (ubi0:0 pid 1187): ubifs_leb_read: reading 4096 bytes from LEB 5:0 "
	       "failed, error -74", KD_FMATCH_FULL, "reading %d bytes from LEB %d:%d failed, error %d",
	       "fs/ubifs/io.c", ARGS("4096", "5", "0", "-74"),
	       "ubifs_err(): after \"UBIFS error (ubi0:0 pid 1187): <function>: \"");
	expect("recovery needed", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ubifs_msg(): not without its prefix");
	expect("9pnet: (00000412) >>> TVERSION msize 512000 protocol 3", KD_FMATCH_FULL,
	       ">>> TVERSION msize %d protocol %d", "net/9p/client.c", ARGS("512000", "3"),
	       "p9_debug(P9_DEBUG_9P): after \"9pnet: (<pid>) \"");
	expect(">>> TVERSION msize 512000 protocol 3", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "p9_debug(): not without its prefix");
	/* several words after "9pnet: ": the caller's format is not looked for there */
	expect("9pnet: -- safe_errno (412): Invalid error code 4096", KD_FMATCH_FULL,
	       "9pnet: -- %s (%d): %pV", "net/9p/mod.c", NULL,
	       "p9_debug(P9_DEBUG_ERROR): \"-- <function> (<pid>): \" is not looked behind");
	expect("[0000:03:00.2]:[qedf_initiate_fipvlan_req:140]:5: Link not up.", KD_FMATCH_FULL,
	       "Link not up.", "drivers/scsi/qedf/qedf_main.c", NOARGS,
	       "QEDF_ERR(): after \"[<device>]:[<function>:<line>]:<host>: \", not its own %pV");
	expect("[0000:00:00.0]:[qedf_initiate_fipvlan_req:140]: Link not up.", KD_FMATCH_FULL,
	       "Link not up.", "drivers/scsi/qedf/qedf_main.c", NOARGS,
	       "QEDF_ERR(): after \"[0000:00:00.0]:[<function>:<line>]: \" (no PCI device)");
	expect("Link not up.", KD_FMATCH_NONE, NULL, NULL, NULL, "QEDF_ERR(): not without its prefix");
	expect("[0000:04:00.1]:[qedi_iscsi_event_cb:130]:3: Recv Unknown Event 17", KD_FMATCH_FULL,
	       "Recv Unknown Event %u", "drivers/scsi/qedi/qedi_main.c", ARGS("17"),
	       "QEDI_ERR(): after \"[<device>]:[<function>:<line>]:<host>: \", not its own %pV");
	expect("Recv Unknown Event 17", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "QEDI_ERR(): not without its prefix");
	expect("mlx4_en: eth2: Error detaching flow. rc = -22", KD_FMATCH_FULL,
	       "Error detaching flow. rc = %d", "drivers/net/ethernet/mellanox/mlx4/en_netdev.c",
	       ARGS("-22"), "en_err(): after \"mlx4_en: <ifname>: \", not its own %pV");
	expect("Error detaching flow. rc = -22", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "en_err(): not without its prefix");
	/*
	 * Before the net device is registered "Port <n>: " is a word too
	 * many: the caller's format is not looked for there, and the text
	 * stays unmatched.
	 */
	expect("mlx4_en: 0000:03:00.0: Port 1: Error detaching flow. rc = -22", KD_FMATCH_NONE,
	       NULL, NULL, NULL,
	       "en_err(): \"mlx4_en: <pci device>: Port <n>: \" is not looked behind");
	expect("ath5k: phy0: can't alloc skbuff of size 2400", KD_FMATCH_FULL,
	       "can't alloc skbuff of size %u", "drivers/net/wireless/ath/ath5k/base.c", ARGS("2400"),
	       "ATH5K_ERR(): after \"ath5k: <phy>: \", not its own %pV");
	expect("ath5k: can't alloc skbuff of size 2400", KD_FMATCH_FULL,
	       "can't alloc skbuff of size %u", "drivers/net/wireless/ath/ath5k/base.c", ARGS("2400"),
	       "ATH5K_ERR(): after \"ath5k: \" (no hardware yet)");
	expect("ath5k: phy0: (ath5k_update_bssid_mask_and_opmode:571): RX filter 0x1e5",
	       KD_FMATCH_FULL, "(%s:%d): RX filter 0x%x", "drivers/net/wireless/ath/ath5k/base.c",
	       ARGS("ath5k_update_bssid_mask_and_opmode", "571", "1e5"),
	       "ATH5K_DBG(): \"(<function>:<line>): \" is its format's");
	expect("can't alloc skbuff of size 2400", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "ATH5K_ERR(): not without its prefix");
	expect("NILFS (sdb1): unable to write superblock: err=-5", KD_FMATCH_FULL,
	       "unable to write superblock: err=%d", "fs/nilfs2/super.c", ARGS("-5"),
	       "nilfs_err(): after \"NILFS (<device>): \"");
	expect("unable to write superblock: err=-5", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "nilfs_err(): not without its prefix");
	expect("(kworker/u8:2,1187,1):ocfs2_validate_extent_block:894 ERROR: Checksum failed for "
	       "extent block 4242", KD_FMATCH_FULL, "Checksum failed for extent block %llu",
	       "fs/ocfs2/alloc.c", ARGS("4242"),
	       "mlog(ML_ERROR): after \"(<task>,<pid>,<cpu>):<function>:<line> ERROR: \"");
	expect("(mount.ocfs2,2313,0):ocfs2_fill_super:1005 ERROR: status = -22", KD_FMATCH_FULL,
	       "status = %lld", "fs/ocfs2/super.c", ARGS("-22"), "mlog_errno(): likewise");
	expect("Checksum failed for extent block 4242", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "mlog(ML_ERROR): not without its prefix");
	/*
	 * Without "ERROR: " no ": " ends ocfs2's prefix: the caller's format
	 * is not looked for, and the text stays unmatched.
	 */
	expect("(dd,4242,3):ocfs2_get_block:149 get_block on system inode 0x00000000c0ffee00 (12)",
	       KD_FMATCH_NONE, NULL, NULL, NULL,
	       "mlog(ML_NOTICE): \"(<task>,<pid>,<cpu>):<function>:<line> \" is not looked behind");
	expect("tda18271_read_regs: [1-0060|M] ERROR: i2c_transfer returned: -6", KD_FMATCH_FULL,
	       "ERROR: i2c_transfer returned: %d", "drivers/media/tuners/tda18271-common.c",
	       ARGS("-6"), "tda_err(): after \"<function>: [<adapter>-<address>|M] \"");
	expect("tda18271_read_regs: ERROR: i2c_transfer returned: -6", KD_FMATCH_FULL,
	       "ERROR: i2c_transfer returned: %d", "drivers/media/tuners/tda18271-common.c",
	       ARGS("-6"), "tda_err(): after \"<function>: \" (no state)");
	expect("ERROR: i2c_transfer returned: -6", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "tda_err(): not without its prefix");
	/* jfs_error(): "(device <device>): <caller>: " is more than a word after "ERROR: " */
	expect("ERROR: (device sdc1): xtUpdate: xtSearch failed", KD_FMATCH_FULL,
	       "ERROR: (device %s): %ps: %pV", "fs/jfs/super.c", NULL,
	       "jfs_error(): the caller's format is not looked for behind its prefix");
	expect("lpfc 0000:05:00.0: 0:1303 Link Up Event x8 received Data: x8 xf7 x10 x0 x0",
	       KD_FMATCH_FULL, "%d:1303 Link Up Event x%x received Data: x%x x%x x%x x%x x%x",
	       "drivers/scsi/lpfc/lpfc_hbadisc.c", ARGS("0", "8", "8", "f7", "10", "0", "0"),
	       "lpfc_printf_log(): dev_printk() at the caller, \"%d:\" the format's");
	expect("lpfc 0000:05:00.0: 0:(0):0116 Xmit ELS command x3 to remote NPORT xfffffe I/O tag: "
	       "x5, port state:x5 rpi x0 fc_flag:x40", KD_FMATCH_FULL,
	       "%d:(%d):0116 Xmit ELS command x%x to remote NPORT x%x I/O tag: x%x, port state:x%x "
	       "rpi x%x fc_flag:x%lx", "drivers/scsi/lpfc/lpfc_els.c",
	       ARGS("0", "0", "3", "fffffe", "5", "5", "0", "40"),
	       "lpfc_printf_vlog(): \"%d:(%d):\" the format's");
	expect("0:1303 Link Up Event x8 received Data: x8 xf7 x10 x0 x0", KD_FMATCH_NONE, NULL, NULL,
	       NULL, "lpfc_printf_log(): not without the device");
	expect("RSDT len 000034 (v01 BOCHS  BXPC    )", KD_FMATCH_FULL,
	       "%-4.4s len %06X (v%.2d %-6.6s %-8.8s)", "t.c",
	       ARGS("RSDT", "000034", "01", "BOCHS ", "BXPC    "),
	       "\"%-6.6s\" reads exactly 6 bytes: one reading, with its arguments");
	expect("RSDT len 000034 (v01 BOCHS BXPC    )", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "\"%-6.6s\" does not read 5 bytes");
	expect("AE_NOT_FOUND, Could not install handler (20240827/evx-301)", KD_FMATCH_NONE,
	       NULL, NULL, NULL, "ACPICA: an ACPICA format does not match without the prefix");
	expect("ACPI Error: 1 ACPI AML tables successfully acquired and loaded", KD_FMATCH_FULL,
	       NULL, NULL, NULL, "ACPICA: any of ACPICA's prefixes (the level tells them apart)");
	expect("e1000e: Intel(R) PRO/1000 Network Driver", KD_FMATCH_FULL,
	       "e1000e: Intel(R) PRO/1000 Network Driver", "drivers/net/e1000e/netdev.c", NOARGS,
	       "pr_fmt(): the module prefix is part of the format");
}

static void check_conversions(void)
{
	expect("kptest:hello 5", KD_FMATCH_FULL, "kptest:hello %d", "kp.c", ARGS("5"),
	       "%pV: a wrapper does not compete with a format that reads the text");
	tap_is_int(r.nsites, 1, "%pV: the wrapper is no second site");
	expect("kptest:other words", KD_FMATCH_FULL, "kptest:%s %pV", "kp.c", NULL,
	       "%pV: the wrapper when nothing else reads the text");
	tap_is_int(r.nargs, -1, "%pV: no arguments (they are another format's)");
	expect("data: 01 02 ab", KD_FMATCH_FULL, "data: %*ph", NULL, ARGS("01 02 ab"), "%*ph");
	expect("data: ", KD_FMATCH_FULL, "data: %*ph", NULL, ARGS(""), "%*ph of no bytes");
	expect("mac data: 01:02:ab end", KD_FMATCH_FULL, "mac data: %*phC end", NULL,
	       ARGS("01:02:ab"), "%*phC: colons");
	expect("mac data: 01 02 end", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "%*phC: spaces are not its separator");
	expect("pci_bus 0000:00: root bus resource [mem 0x000a0000-0x000bffff window]", KD_FMATCH_FULL,
	       "root bus resource %pR%s", "drivers/pci/probe.c",
	       ARGS("[mem 0x000a0000-0x000bffff window]", ""), "%pR: the resource in brackets, then %s");
	expect("pci_bus 0000:00: root bus resource [bus 00-ff] (ignored)", KD_FMATCH_FULL,
	       "root bus resource %pR%s", "drivers/pci/probe.c", ARGS("[bus 00-ff]", " (ignored)"),
	       "%pR: up to its ']' and no further");
	expect("addr 192.168.1.10 port 80", KD_FMATCH_FULL, "addr %pI4 port %u", NULL,
	       ARGS("192.168.1.10", "80"), "%pI4");
	expect("addr 192.168.1 port 80", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "%pI4: three numbers are no address");
	expect("mac 52:54:00:12:34:56 up", KD_FMATCH_FULL, "mac %pM up", NULL,
	       ARGS("52:54:00:12:34:56"), "%pM");
	expect("mac 52:54:00 up", KD_FMATCH_NONE, NULL, NULL, NULL, "%pM: too short");
	expect("name <abc def>", KD_FMATCH_FULL, "name <%.*s>", NULL, ARGS("abc def"), "%.*s");
	expect("val=   42;", KD_FMATCH_FULL, "val=%*d;", NULL, ARGS("   42"), "%*d: padding is the argument's");
	expect("val=-7;", KD_FMATCH_FULL, "val=%*d;", NULL, ARGS("-7"), "%*d: a sign");
	expect("val=x;", KD_FMATCH_NONE, NULL, NULL, NULL, "%*d: not a number");
	expect("left=42   |", KD_FMATCH_FULL, "left=%-5d|", NULL, ARGS("42   "), "%-5d");
	expect("flags 0x1f id 0000beef", KD_FMATCH_FULL, "flags %#x id %08x", NULL,
	       ARGS("0x1f", "0000beef"), "%#x and %08x");
	expect("flags 0x1g id 0000beef", KD_FMATCH_NONE, NULL, NULL, NULL, "%#x: not hex");
}

static void check_ambiguity(void)
{
	expect("ahci 0000:00:1f.2: timeout waiting for reset", KD_FMATCH_FULL,
	       "timeout waiting for %s", "", ARGS("reset"),
	       "two drivers, one message: the format, no call site");
	tap_ok(r.nsites == 2 && r.nformats == 1 && !r.same_module && !r.same_func,
	       "two drivers, one message: 2 sites, 1 format, no module or function");
	expect("modb 0000:00:1f.2: timeout waiting for reset", KD_FMATCH_FULL,
	       "timeout waiting for %s", "b.c", ARGS("reset"),
	       "two drivers, one message: the driver name picks the module");
	tap_is_int(r.nsites, 1, "two drivers, one message: one site left after the driver name");
	expect("probe of eth0 failed", KD_FMATCH_FULL, "probe of %s failed", "", ARGS("eth0"),
	       "prefix formats: the one with more literal bytes, no call site");
	tap_ok(r.nsites == 2 && r.nformats == 2, "prefix formats: flagged with 2 candidates");
	expect("probe of eth0", KD_FMATCH_FULL, "probe of %s", "p.c", ARGS("eth0"),
	       "prefix formats: the shorter alone when the longer does not read the text");
	expect("ACPI: PM: Preparing to enter system sleep state S5", KD_FMATCH_FULL,
	       "ACPI: PM: Preparing to enter system sleep state S%d", "drivers/acpi/sleep.c",
	       ARGS("5"), "less than half the literal bytes: no competitor");
	tap_is_int(r.nsites, 1, "less than half the literal bytes: not counted");
	expect("link up up", KD_FMATCH_FULL, NULL, "", NULL,
	       "equal literal bytes: no call site");
	tap_ok(r.nsites == 2 && r.nformats == 2, "equal literal bytes: flagged with 2 candidates");
	expect("Console: switching to colour dummy device 80x25", KD_FMATCH_PARTIAL,
	       "Console: switching ", "", NULL,
	       "a pr_cont() start with more literal bytes than the whole format: it, no call site");
	tap_ok(r.nsites == 2 && r.nformats == 2 && !r.same_func && !r.same_line,
	       "a pr_cont() start over a whole format: flagged with 2 candidates");
	expect("Console: colour dummy device 80x25", KD_FMATCH_FULL, "Console: %s %s %dx%d",
	       "drivers/tty/vt/vt.c", NULL, "the whole format where the pr_cont() start does not read");
	tap_is_int(r.nsites, 1, "the whole format alone: one site");
	expect("copy a to b to c", KD_FMATCH_FULL, "copy %s to %s", "c.c", NULL,
	       "two readings of the arguments: the format and site");
	tap_is_int(r.nargs, -1, "two readings of the arguments: no arguments");
	expect("copy a to b", KD_FMATCH_FULL, "copy %s to %s", "c.c", ARGS("a", "b"),
	       "one reading: the arguments");
}

static void check_rest(void)
{
	char big[1100], evil[3000];

	expect("completely unknown words here", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "a text no format reads");
	expect("Booting CPU 3 done", KD_FMATCH_PARTIAL, "Booting CPU %d", "smp.c", NULL,
	       "continued text: the format of its start, partial");
	tap_ok(r.nargs == 1 && r.end == 13,
	       "continued text: the number the continuation cannot have made longer, the end of the part");
	expect("Booting CPU 3a done", KD_FMATCH_PARTIAL, "Booting CPU %d", "smp.c", NULL,
	       "continued text after a letter: the format of its start, partial");
	tap_ok(r.nargs == -1 && r.end == 13,
	       "continued text after a letter: no arguments (only a blank or punctuation closes the number)");
	memset(big, 'a', sizeof(big));
	memcpy(big, "long message <", 14);
	big[1000] = '\0';
	expect(big, KD_FMATCH_PARTIAL, "long message <%s>", "long.c", NULL,
	       "a text cut by the record limit inside the format: partial");
	memset(evil, ' ', sizeof(evil) - 1);
	evil[0] = 'x';
	evil[sizeof(evil) - 1] = '\0';
	expect(evil, KD_FMATCH_NONE, NULL, NULL, NULL,
	       "a crafted text for a format of many %s: no match, in bounded steps");
	expect("", KD_FMATCH_NONE, NULL, NULL, NULL, "an empty text");
}

static void check_nolit(void)
{
	static const struct site s[] = {
		{ "%s", KD_FIDX_PLAIN, "init/main.c", "start_kernel", "main", 895 },
		{ "%s%s", KD_FIDX_PLAIN, "k.c", "k", "k", 1 },
		{ "(%d)", KD_FIDX_PLAIN, "u.c", "u", "u", 2 },
	};
	struct kd_fidx *keep = x;

	x = build(s, 3);
	expect("Linux version 6.12.0 (x@y)", KD_FMATCH_NOLIT, NULL, NULL, NULL,
	       "only a format without literal text reads it: counted apart");
	expect("(42)", KD_FMATCH_FULL, "(%d)", "u.c", ARGS("42"),
	       "a format with literal text but no word is still found");
	kd_fidx_free(x);
	x = keep;
}

/*
 * A pr_cont() start whose function's fragment reads the rest of the text
 * wins over the whole format alone (vt.c's "Console: switching " and
 * "to %s %s %dx%d"); a fragment of another function proves nothing.
 */
static void check_continued(void)
{
	struct kd_fidx_site t[] = {
		{ .fmt = "Console: %s %s %dx%d", .file = "drivers/tty/vt/vt.c", .func = "con_init",
		  .module = "vt", .line = 3676, .level = '6' },
		{ .fmt = "Console: switching ", .file = "drivers/tty/vt/vt.c",
		  .func = "do_bind_con_driver", .module = "vt", .line = 3846, .level = '6' },
		{ .fmt = "to %s %s %dx%d", .file = "drivers/tty/vt/vt.c",
		  .func = "do_bind_con_driver", .module = "vt", .line = 3852, .level = 'c' },
		{ .fmt = "consoles %d-%d ", .file = "drivers/tty/vt/vt.c",
		  .func = "do_bind_con_driver", .module = "vt", .line = 3848, .level = 'c' },
	};
	struct kd_fidx *keep = x;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		t[i].fmt_len = strlen(t[i].fmt);
		t[i].family = KD_FIDX_PLAIN;
	}
	x = test_fidx_build(t, sizeof(t) / sizeof(t[0]));
	expect("Console: switching to colour dummy device 80x25", KD_FMATCH_PARTIAL,
	       "Console: switching ", "drivers/tty/vt/vt.c", NULL,
	       "a pr_cont() start whose fragment reads the rest: it, with its call site");
	tap_ok(r.nsites == 1 && r.same_line && r.same_func,
	       "a pr_cont() start whose fragment reads the rest: one site, not flagged");
	expect("Console: switching to colour frame buffer device 160x50", KD_FMATCH_PARTIAL,
	       "Console: switching ", "drivers/tty/vt/vt.c", NULL,
	       "the whole format reading only \"...160x5\" is no competitor then");
	tap_ok(r.nsites == 1 && r.same_line,
	       "the whole format reading only the start: not counted");
	kd_fidx_free(x);
	t[2].func = "other_function";
	x = test_fidx_build(t, sizeof(t) / sizeof(t[0]));
	expect("Console: switching to colour dummy device 80x25", KD_FMATCH_PARTIAL,
	       "Console: switching ", "", NULL,
	       "a fragment of another function proves nothing: no call site");
	tap_ok(r.nsites == 2 && r.nformats == 2, "a fragment of another function: flagged with 2");
	kd_fidx_free(x);
	x = keep;
}

/* issue 18: the decision rules measured against a kprint boot */
static void check_rules(void)
{
	static const struct site s[] = {
		{ "%s version %s", KD_FIDX_PLAIN, "mwl8k.c", "probe", "mwl8k", 1 },
		{ "    KTAP version 1", KD_FIDX_PLAIN, "test.c", "start", "kunit", 2 },
		{ "WARNING: CPU: %d PID: %d at %s:%d %pS", KD_FIDX_PLAIN, "panic.c", "w", "panic", 3 },
		{ "WARNING: CPU: %d PID: %d at %pS", KD_FIDX_PLAIN, "panic.c", "w2", "panic", 4 },
		{ "%s </%s>", KD_FIDX_PLAIN, "dumpstack.c", "t", "dumpstack", 5 },
		{ "%s <%s>", KD_FIDX_PLAIN, "dumpstack.c", "t2", "dumpstack", 6 },
		{ "%5s  %5s  %5s", KD_FIDX_PLAIN, "blank.c", "b", "blank", 7 },
		{ "count %5d end", KD_FIDX_PLAIN, "w.c", "w", "w", 8 },
		{ "%s:%d: %s", KD_FIDX_PLAIN, "few.c", "f", "few", 9 },
		{ "serio: %s at %#lx,%#lx irq %d", KD_FIDX_PLAIN, "i8042.c", "p", "i8042", 10 },
		{ "serio: %s port at %s", KD_FIDX_PLAIN, "rmi.c", "r", "rmi", 11 },
		{ "%s: %s HID v%x.%02x %s [%s] on %s", KD_FIDX_DEV, "drivers/hid/hid-core.c",
		  "hid_connect", "hid", 2372 },
		{ "%s: %s at %s: %s", KD_FIDX_PLAIN, "three.c", "t", "three", 12 },
		{ "%s%s, %d bytes nvram%s", KD_FIDX_DEV, "drivers/rtc/rtc-cmos.c", "cmos_do_probe",
		  "rtc_cmos", 1128 },
		{ "e1000: %s", KD_FIDX_PLAIN, "drivers/net/ethernet/intel/e1000/e1000_main.c",
		  "e1000_init_module", "e1000", 220 },
		{ "e1000: %s", KD_FIDX_PLAIN, "drivers/net/ethernet/intel/e1000/e1000_main.c",
		  "e1000_init_module", "e1000", 222 },
		{ "usbx: %s", KD_FIDX_PLAIN, "drivers/usb/x.c", "x_init", "notusbx", 10 },
		{ "%s %.8s %.16s %.4s PQ: %d ANSI: %d%s", KD_FIDX_DEV, "drivers/scsi/scsi_scan.c",
		  "scsi_add_lun", "scsi_mod", 975 },
		{ "rev <%.4s> of %s", KD_FIDX_PLAIN, "rev.c", "r", "rev", 13 },
	};
	struct kd_fidx *keep = x;

	x = build(s, sizeof(s) / sizeof(s[0]));
	expect("    KTAP version 1", KD_FMATCH_FULL, "    KTAP version 1", "test.c", NOARGS,
	       "literal text that is part of another's is no rival");
	tap_is_int(r.nsites, 1, "literal text part of another's: one site, not flagged");
	expect("Linux version 6.12.0 (x@y) (gcc 12) #1 SMP PREEMPT_DYNAMIC Debian", KD_FMATCH_NONE,
	       NULL, NULL, NULL, "\"%s version %s\" for a banner: a guess, not claimed");
	expect("WARNING: CPU: 0 PID: 37 at kernel/printk/printk.c:3800 f+0x27/0x34", KD_FMATCH_FULL,
	       "WARNING: CPU: %d PID: %d at %s:%d %pS", "panic.c", NULL,
	       "%pS reads a symbol, not \"kernel/printk/printk.c:3800 f\"");
	tap_is_int(r.nsites, 1, "%pS: one site");
	expect(" </TASK>", KD_FMATCH_FULL, "%s </%s>", "dumpstack.c", ARGS("", "TASK"),
	       "\"%s <%s>\" reads \"/TASK\" as an argument: no rival");
	expect("    1..7", KD_FMATCH_NOLIT, NULL, NULL, NULL,
	       "blanks are no literal text: \"%5s  %5s  %5s\" counted apart, not claimed");
	expect("count     9 end", KD_FMATCH_FULL, "count %5d end", "w.c", ARGS("    9"),
	       "%5d: a padded field is exactly 5 wide");
	expect("count       9 end", KD_FMATCH_NOLIT, NULL, NULL, NULL,
	       "%5d: not 7 wide when padded (only the blank format reads it)");
	expect("pnp 00:02: [dma 2]", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "3 literal bytes amid free text: a guess");
	expect("serio: i8042 KBD port at 0x60,0x64 irq 1", KD_FMATCH_FULL,
	       "serio: %s at %#lx,%#lx irq %d", "i8042.c", ARGS("i8042 KBD port", "0x60", "0x64", "1"),
	       "typed conversions score over free text: no rival");
	tap_is_int(r.nsites, 1, "typed over free text: one site");
	expect("hid-generic 0003:0627:0001.0001: input: USB HID v1.11 Keyboard [QEMU QEMU USB "
	       "Keyboard] on usb-0000:00:06.0-1/input0", KD_FMATCH_FULL,
	       "%s: %s HID v%x.%02x %s [%s] on %s", "drivers/hid/hid-core.c",
	       ARGS("input", "USB", "1", "11", "Keyboard", "QEMU QEMU USB Keyboard",
		    "usb-0000:00:06.0-1/input0"),
	       "free text first, but 5 pieces of literal text in order: claimed");
	expect("rtc_cmos 00:05: alarms up to one day, y3k, 242 bytes nvram, hpet irqs", KD_FMATCH_FULL,
	       "%s%s, %d bytes nvram%s", "drivers/rtc/rtc-cmos.c", NULL,
	       "free text first, but a piece of 10 literal bytes (\" bytes nvram\"): claimed");
	expect("e1000: Intel(R) PRO/1000 Network Driver", KD_FMATCH_FULL, "e1000: %s",
	       "drivers/net/ethernet/intel/e1000/e1000_main.c", ARGS("Intel(R) PRO/1000 Network Driver"),
	       "a module's prefix and one string: that module's text, however short");
	tap_ok(r.nsites == 2 && r.same_func && !r.same_line,
	       "a module's prefix and one string, two lines: flagged, no line");
	expect("usbx: some text of another module entirely", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "a prefix and one string of another module's name: a guess");
	expect("scsi 6:0:0:0: Direct-Access     QEMU     QEMU HARDDISK    2.5+ PQ: 0 ANSI: 5",
	       KD_FMATCH_FULL, "%s %.8s %.16s %.4s PQ: %d ANSI: %d%s", "drivers/scsi/scsi_scan.c", NULL,
	       "free text first, but three strings of a precision and two pieces: claimed");
	expect("rev <2.5+> of the disk", KD_FMATCH_FULL, "rev <%.4s> of %s", "rev.c",
	       ARGS("2.5+", "the disk"), "%.4s: four bytes");
	expect("rev <2.5.1> of the disk", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "%.4s: not five bytes");
	expect("lots of words here: and at least some more text of it: and more", KD_FMATCH_NONE,
	       NULL, NULL, NULL, "free text first and 3 pieces of literal text: a guess");
	kd_fidx_free(x);
	x = keep;
}

/*
 * Commit f190a6a: the score rule and the literal-text rule dropped every
 * match between them ("foo %d bar %s" scores 16 with its digits, "foo %s
 * bar baz" 9, below three quarters of it, and its literal text covers
 * the first's): decide() then read past its matches.  The top scorer
 * stays, alone and not flagged.
 */
static void check_all_dropped(void)
{
	static const struct site s[] = {
		{ "foo %d bar %s", KD_FIDX_PLAIN, "top.c", "top", "top", 1 },
		{ "foo %s bar baz", KD_FIDX_PLAIN, "lit.c", "lit", "lit", 2 },
	};
	struct kd_fidx *keep = x;

	x = build(s, 2);
	expect("foo 1234567890 bar baz", KD_FMATCH_FULL, "foo %d bar %s", "top.c",
	       ARGS("1234567890", "baz"), "every match dropped by the rules: the top scorer stays");
	tap_ok(r.nsites == 1 && r.nformats == 1 && r.same_func && r.same_line,
	       "every match dropped by the rules: one site, its call site claimed");
	kd_fidx_free(x);
	x = keep;
}

/* Whether two answers say the same, field by field. */
static bool same_answer(const struct kd_fmatch_result *a, const struct kd_fmatch_result *b)
{
	if (a->status != b->status || a->index != b->index || a->id != b->id ||
	    a->nformats != b->nformats || a->nsites != b->nsites ||
	    a->same_file != b->same_file || a->same_line != b->same_line ||
	    a->same_func != b->same_func || a->same_module != b->same_module ||
	    a->start != b->start || a->end != b->end || a->score != b->score ||
	    a->read != b->read || a->free != b->free || a->nargs != b->nargs)
		return false;
	for (int k = 0; k < a->nargs; k++)
		if (a->arg[k].off != b->arg[k].off || a->arg[k].len != b->arg[k].len)
			return false;
	return true;
}

/*
 * The matcher keeps scratch state between calls (fmatch.c's key set,
 * fmatch-prep.c's marks and the shared tests' outcomes, the decision's
 * tables): none of it may change an answer.  A text matched again, or a
 * copy of it, gets the answer a fresh index gives; the same text against
 * another index gets that index's answer; a long text twice the same.
 */
static void check_no_state(void)
{
	static const struct site s[] = {
		{ "probe of %s", KD_FIDX_PLAIN, "p.c", "probe_short", "p", 30 },
	};
	static const char *const texts[] = {
		"probe of sda failed",
		"e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex",
		"no such text in any format at all",
		"probe of sda failed",
	};
	struct kd_fidx *fresh = build(sites, sizeof(sites) / sizeof(sites[0])), *other, *keep = x;
	struct kd_fmatch_result want;
	char copy[256], longer[400];
	bool ok = true;

	/* Each against a fresh index, then twice against the one in use. */
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const struct kd_fidx *const idx[1] = { fresh };

		snprintf(copy, sizeof(copy), "%s", texts[i]);
		kd_fmatch_text(idx, 1, texts[i], strlen(texts[i]), &want);
		match(texts[i]);
		ok &= same_answer(&r, &want);
		match(copy);
		ok &= same_answer(&r, &want);
		kd_fidx_free(fresh);
		fresh = build(sites, sizeof(sites) / sizeof(sites[0]));
	}
	tap_ok(ok, "a text seen before: the answer of a fresh index");
	kd_fidx_free(fresh);

	expect("probe of sda failed", KD_FMATCH_FULL, "probe of %s failed", NULL, ARGS("sda"),
	       "matched again: the longer format");
	other = build(s, 1);
	x = other;
	expect("probe of sda failed", KD_FMATCH_FULL, "probe of %s", "p.c", ARGS("sda failed"),
	       "the same text, another index: its own answer");
	kd_fidx_free(other);
	x = keep;

	/* 60 hex pairs */
	strcpy(longer, "mac data: ");
	for (int k = 0; k < 60; k++)
		sprintf(longer + strlen(longer), k ? ":%02x" : "%02x", k);
	strcat(longer, " end");
	expect(longer, KD_FMATCH_FULL, "mac data: %*phC end", "d.c", NULL,
	       "a long text: matched");
	expect(longer, KD_FMATCH_FULL, "mac data: %*phC end", "d.c", NULL,
	       "a long text: matched again, the same");
}

/*
 * Sites of one format come as a run (fidx-build.c); the decision takes a
 * run at once where its sites agree and site by site where they do not:
 * every answer is the one the rules give site by site.  Among the first
 * MATCHES_MAX (256) sites only; the rest count as unchecked rivals.
 */
static void check_runs(void)
{
	static struct site s[300 + 9];
	static char files[300][16];
	struct kd_fidx *keep = x;
	size_t n = 0;

	for (unsigned int i = 0; i < 300; i++) {
		snprintf(files[i], sizeof(files[i]), "run%u.c", i);
		s[n++] = (struct site){ "run test: lost %d frames", KD_FIDX_DEV, files[i], "rf",
					i == 100 ? "mid" : i == 280 ? "late" : "runmod", 10 + i };
	}
	for (unsigned int i = 0; i < 5; i++)
		s[n++] = (struct site){ "short run: %d", KD_FIDX_PLAIN, "s.c", "sf", "smod", 1 + i };
	s[n++] = (struct site){ "twin run: %d", KD_FIDX_DEV, "t.c", "tf", "c1", 7 };
	s[n++] = (struct site){ "twin run: %d", KD_FIDX_DEV, "t.c", "tf", "c2", 7 };
	s[n++] = (struct site){ "twin run: %d", KD_FIDX_DEV, "t.c", "tf", "c3", 7 };
	s[n++] = (struct site){ "twin run: %d", KD_FIDX_DEV, "t.c", "tf", "c_4", 7 };
	x = build(s, n);
	expect("short run: 7", KD_FMATCH_FULL, "short run: %d", "s.c", ARGS("7"),
	       "a run of five sites of one file: the file");
	tap_ok(r.nsites == 5 && r.nformats == 1 && r.same_func && r.same_module && !r.same_line,
	       "a run of five sites of one file: 5 sites, function and module, no line");
	expect("xx 0000:00:02.0: twin run: 7", KD_FMATCH_FULL, "twin run: %d", "t.c", ARGS("7"),
	       "a run of four modules: the file");
	tap_ok(r.nsites == 4 && r.same_func && r.same_line && !r.same_module,
	       "a run of four modules: 4 sites, function and line, no module");
	expect("c2 0000:00:02.0: twin run: 7", KD_FMATCH_FULL, "twin run: %d", "t.c", ARGS("7"),
	       "a run of four modules: the driver name picks the second");
	tap_ok(r.nsites == 1 && r.same_module && r.same_line,
	       "a run of four modules: one site, its module");
	expect("c-4 0000:00:02.0: twin run: 7", KD_FMATCH_FULL, "twin run: %d", "t.c", ARGS("7"),
	       "a run of four modules: '-' in the driver name is '_' in the module's");
	tap_ok(r.nsites == 1 && r.same_module, "a run of four modules: the last one alone");
	expect("runmod 0000:00:01.0: run test: lost 5 frames", KD_FMATCH_FULL,
	       "run test: lost %d frames", "", ARGS("5"),
	       "a run of 300 sites: the format, no call site");
	tap_ok(r.nsites == 255 + 44 && r.nformats == 1 && !r.same_func && !r.same_module,
	       "a run of 300 sites: the 255 of the text's module among the first 256, 44 unchecked");
	expect("mid 0000:00:01.0: run test: lost 5 frames", KD_FMATCH_FULL,
	       "run test: lost %d frames", "", ARGS("5"),
	       "a run of 300 sites, one of the text's module: no call site");
	tap_is_int(r.nsites, 1 + 44, "a run of 300 sites: that one and 44 unchecked");
	expect("late 0000:00:01.0: run test: lost 5 frames", KD_FMATCH_FULL,
	       "run test: lost %d frames", "", ARGS("5"),
	       "a run of 300 sites, the text's module past the first 256: no call site");
	tap_is_int(r.nsites, 256 + 44, "a run of 300 sites: the first 256 and 44 unchecked");
	kd_fidx_free(x);
	x = keep;
}

/*
 * The last literal bytes of a format are tested before it is read: a
 * text shorter than the 4 bytes tested, and a longer one, still match.
 */
static void check_tails(void)
{
	static const struct site s[] = {
		{ "up", KD_FIDX_PLAIN, "u.c", "u", "u", 1 },
		{ "link is up", KD_FIDX_PLAIN, "l.c", "l", "l", 2 },
		{ "link %d is up", KD_FIDX_PLAIN, "n.c", "n", "n", 3 },
	};
	struct kd_fidx *keep = x;

	x = build(s, sizeof(s) / sizeof(s[0]));
	expect("up", KD_FMATCH_FULL, "up", "u.c", NOARGS, "a text of 2 bytes: its format");
	expect("link is up", KD_FMATCH_FULL, "link is up", "l.c", NOARGS,
	       "a format that ends in literal text: matched");
	expect("link 3 is up", KD_FMATCH_FULL, "link %d is up", "n.c", ARGS("3"),
	       "a conversion before the last literal bytes: matched");
	expect("link is upx", KD_FMATCH_PARTIAL, "link is up", "l.c", NULL,
	       "a text that goes on after the format's end: its start only");
	expect("link 3 is down", KD_FMATCH_NONE, NULL, NULL, NULL,
	       "a text that does not end as the format does: no match");
	kd_fidx_free(x);
	x = keep;
}

/*
 * The reader's search for a literal piece (16 starts at a time in the
 * text's padded copy): the piece at every offset around the 16-byte
 * steps, after decoys that share its first and last bytes, and in a
 * text too long for the copy (the plain search): the same arguments.
 */
static void check_search(void)
{
	static char text[9100];
	char want1[9000];
	unsigned int bad = 0, runs = 0;

	for (size_t k = 1; k <= 48; k++)
		for (int decoy = 0; decoy < 2; decoy++) {
			size_t n = 0;

			n += (size_t)sprintf(text + n, "copy ");
			for (size_t i = 0; i < k; i++)
				text[n++] = decoy && i % 5 == 0 ? ' ' : 'a';
			if (decoy)
				n += (size_t)sprintf(text + n, " tx  to_");
			memcpy(want1, text + 5, n - 5);
			want1[n - 5] = '\0';
			sprintf(text + n, " to b%zu", k);
			runs++;
			if (match(text) != KD_FMATCH_FULL || strcmp(fmt_of(), "copy %s to %s") ||
			    !arg_is(text, 0, want1)) {
				if (!bad++)
					tap_diag("differs at %zu (decoy %d): \"%s\"", k, decoy, text);
			}
		}
	tap_ok(bad == 0, "a piece at every offset, after decoys: found (%u texts)", runs);
	memcpy(text, "copy ", 5);
	memset(text + 5, 'a', 9000);
	strcpy(text + 9005, " to b");
	tap_ok(match(text) == KD_FMATCH_FULL && strcmp(fmt_of(), "copy %s to %s") == 0 &&
	       r.nargs == 2 && r.arg[0].len == 9000, "a text longer than the padded copy: found");
}

int main(void)
{
	x = build(sites, sizeof(sites) / sizeof(sites[0]));
	tap_is_int(kd_fidx_count(x), (long long)(sizeof(sites) / sizeof(sites[0])),
		   "every site is in the index");
	check_prefixes();
	check_conversions();
	check_ambiguity();
	check_rest();
	check_nolit();
	check_rules();
	check_continued();
	check_all_dropped();
	check_runs();
	check_tails();
	check_search();
	check_no_state();
	kd_fidx_free(x);
	return tap_done();
}
