/* The UART loader's memory map and protocol constants, shared by the boot
 * ROM (uartboot.S) and the loader (loader.c). DRAM_SIZE comes from the
 * build (the board's memory); the loader keeps the top 32 KiB of it: its
 * image and stack, the word that releases the other harts, the DTB copy. */
#ifndef LOADER_H
#define LOADER_H

#define DRAM_BASE	0x80000000
#define DRAM_TOP	(DRAM_BASE + DRAM_SIZE)
#define DTB_ADDR	(DRAM_TOP - 0x4000)	/* up to 16 KiB */
#define RELEASE_ADDR	(DTB_ADDR - 0x40)	/* entry of the loaded program, for harts 1.. */
#define STACK_TOP	(DTB_ADDR - 0x80)
#define LOADER_BASE	(DRAM_TOP - 0x8000)	/* the loader's image; programs end below it */
#define UART_BASE	0x10000000

#define LOADER_SYNC		0xb5
#define LOADER_MAX_PAYLOAD	4096
#define QUIET_CYCLES		20000	/* a quiet line after a refusal: the host stopped */

/* Refusal codes, after 'N'. */
#define LOADER_E_CRC		1	/* checksum mismatch */
#define LOADER_E_TYPE		2	/* unknown frame type */
#define LOADER_E_ADDRESS	3	/* outside DRAM below the loader */
#define LOADER_E_LENGTH		4	/* payload over LOADER_MAX_PAYLOAD */
#define LOADER_E_OVERRUN	5	/* the receiver lost bytes: the line is too fast */

#endif
