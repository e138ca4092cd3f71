/*
 * efistub: the kernel iPXE boots on UEFI, in place of Linux's EFI stub. A
 * PE32+ EFI application (no relocations: its code is position-independent)
 * that prints on COM1 its LoadOptions, the command line an EFI boot loader
 * hands an image, as hex of its LoadOptionsSize bytes (UTF-16 code units,
 * little-endian), between two markers; then it writes to QEMU's
 * isa-debug-exit port, which ends QEMU at once. What Linux makes of the
 * options (efi_convert_cmdline) is linuxEFICmdline in stubs_test.go.
 *
 * Built as efistubImage in stubs_test.go (TestStubsAreTheirSource):
 *   as --64 -o efistub.o efistub.S
 *   ld -m elf_x86_64 -Ttext 0 --oformat binary -o efistub.efi efistub.o
 */
	.code64
	.section .text
	.globl _start
_start:
	/* DOS header */
	.ascii "MZ"
	.org 0x3c
	.long pe - _start
	.org 0x40
pe:	.ascii "PE\0\0"
	.word 0x8664			/* Machine: x86-64 */
	.word 1				/* NumberOfSections */
	.long 0				/* TimeDateStamp */
	.long 0, 0			/* symbols */
	.word opt_end - opt		/* SizeOfOptionalHeader */
	.word 0x0022			/* executable, large address aware */
opt:	.word 0x020b			/* PE32+ */
	.byte 0, 0			/* linker version */
	.long 0x200			/* SizeOfCode */
	.long 0, 0			/* initialized, uninitialized data */
	.long 0x1000 + (entry - text)	/* AddressOfEntryPoint */
	.long 0x1000			/* BaseOfCode */
	.quad 0x10000000		/* ImageBase */
	.long 0x1000			/* SectionAlignment */
	.long 0x200			/* FileAlignment */
	.word 0, 0, 0, 0, 0, 0		/* OS, image, subsystem versions */
	.long 0				/* Win32VersionValue */
	.long 0x2000			/* SizeOfImage */
	.long 0x200			/* SizeOfHeaders */
	.long 0				/* CheckSum */
	.word 10			/* Subsystem: EFI application */
	.word 0				/* DllCharacteristics */
	.quad 0x10000, 0x1000, 0x10000, 0x1000 /* stack and heap */
	.long 0				/* LoaderFlags */
	.long 16			/* NumberOfRvaAndSizes */
	.fill 16, 8, 0			/* data directories: none */
opt_end:
	.ascii ".text\0\0\0"
	.long 0x200			/* VirtualSize */
	.long 0x1000			/* VirtualAddress */
	.long 0x200			/* SizeOfRawData */
	.long 0x200			/* PointerToRawData */
	.long 0, 0			/* relocations, line numbers */
	.word 0, 0
	.long 0xe0000020		/* code, execute, read, write */

	.org 0x200
text:
entry:	/* efi_main(ImageHandle %rcx, SystemTable %rdx) */
	subq	$0x38, %rsp
	movq	0x60(%rdx), %rax		/* BootServices */
	leaq	loaded_image_guid(%rip), %rdx
	leaq	0x28(%rsp), %r8
	movq	$0, (%r8)
	call	*0x98(%rax)			/* HandleProtocol */
	leaq	begin(%rip), %rsi
	call	puts
	movq	0x28(%rsp), %rbx
	testq	%rbx, %rbx
	jz	2f
	movl	0x30(%rbx), %ecx		/* LoadOptionsSize */
	movq	0x38(%rbx), %rsi		/* LoadOptions */
	testq	%rsi, %rsi
	jz	2f
1:	testl	%ecx, %ecx
	jz	2f
	lodsb
	movb	%al, %ah
	shrb	$4, %al
	call	hexdigit
	movb	%ah, %al
	andb	$0xf, %al
	call	hexdigit
	decl	%ecx
	jmp	1b
2:	leaq	end(%rip), %rsi
	call	puts
	movw	$0xf4, %dx
	xorb	%al, %al
	outb	%al, %dx
3:	hlt
	jmp	3b

hexdigit:
	addb	$'0', %al
	cmpb	$'9', %al
	jbe	putc
	addb	$'a' - '9' - 1, %al
putc:	/* %al on COM1 */
	pushq	%rdx
	pushq	%rax
	movw	$0x3fd, %dx
4:	inb	%dx, %al
	testb	$0x20, %al
	jz	4b
	popq	%rax
	movw	$0x3f8, %dx
	outb	%al, %dx
	popq	%rdx
	ret

puts:	/* the NUL-terminated string at %rsi */
	pushq	%rax
5:	lodsb
	testb	%al, %al
	jz	6f
	call	putc
	jmp	5b
6:	popq	%rax
	ret

	.balign 8
loaded_image_guid: /* 5B1B31A1-9562-11D2-8E3F-00A0C969723B */
	.long 0x5b1b31a1
	.word 0x9562, 0x11d2
	.byte 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b
begin:	.asciz "\r\nCORIUM-STUB-EFI-OPTIONS "
end:	.asciz " CORIUM-STUB-END\r\n"
	.org 0x400
