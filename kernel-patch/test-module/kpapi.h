/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between the files of the kprint_api test module. */
#ifndef KPAPI_H
#define KPAPI_H

void kpapi_keep_messages(void);
#ifdef KPAPI_HAVE_ASM_SYM
/* kpapi_asm.S: calls kprint_asm(6, fmt, 6, "asm"); returns its result */
asmlinkage int kpapi_asm_call(void);

/* kpapi_asm.S: calls kprint_asm(6, "kpapi:asm_ctx from=%s", ctx) */
asmlinkage int kpapi_asm_ctx_call(const char *ctx);
#endif
#ifdef KPAPI_HAVE_ASM_SITE
/* kpapi_asm.S: calls kprint_asm_site(&site, 3, 3, "asm_site") */
asmlinkage int kpapi_asm_site_call(void);

/* kpapi_asm.S: calls kprint_early(KERN_ERR "kpapi:asm_early v=%d", 44) */
asmlinkage void kpapi_asm_early_call(void);
#endif

#endif
