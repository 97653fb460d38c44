/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Part of the kprint_api test module: an assembly caller of kprint_asm(),
 * the entry point of issue 4 for assembly code.  Built only when the
 * kernel exports kprint_asm (see Kbuild).
 */
#include <linux/linkage.h>

#ifdef KPAPI_HAVE_ASM_SYM
	.section .rodata.str1.1, "aMS", @progbits, 1
.Lkpapi_fmt:
	.asciz "kpapi:asm level=%d from=%s"
.Lkpapi_from:
	.asciz "asm"

	.text
/* int kpapi_asm_call(void): kprint_asm(6, fmt, 6, "asm") */
SYM_FUNC_START(kpapi_asm_call)
	push	%rbx			/* realigns the stack to 16 bytes */
	mov	$6, %edi
	leaq	.Lkpapi_fmt(%rip), %rsi
	mov	$6, %edx
	leaq	.Lkpapi_from(%rip), %rcx
	xor	%eax, %eax		/* varargs: no vector registers */
	call	kprint_asm
	pop	%rbx
	RET
SYM_FUNC_END(kpapi_asm_call)
#endif
