// SPDX-License-Identifier: GPL-2.0
/*
 * Swap on zram, so that anonymous memory can be reclaimed without a disk:
 * size the device, write a swap header (there is no mkswap) and swapon().
 */
#include "init.h"

#define SWAP_PAGE	4096
#define SWAP_MAGIC	"SWAPSPACE2"

int setup_swap(unsigned long mbytes)
{
	static unsigned int header[SWAP_PAGE / 4];
	char size[32];
	int fd;

	int len = utoa_r(mbytes, size);
	size[len] = 'M';
	size[len + 1] = 0;
	if (write_text("/sys/block/zram0/disksize", size)) {
		say("swap: cannot size /dev/zram0\n");
		return -1;
	}
	/* struct swap_header: version at byte 1024, last_page after it,
	 * the magic in the page's last ten bytes. */
	memset(header, 0, sizeof(header));
	header[1024 / 4] = 1;
	header[1024 / 4 + 1] = (unsigned int)(mbytes * 1024 * 1024 / SWAP_PAGE - 1);
	memcpy((char *)header + SWAP_PAGE - 10, SWAP_MAGIC, 10);
	fd = open("/dev/zram0", O_WRONLY);
	if (fd < 0 || write(fd, header, sizeof(header)) != (ssize_t)sizeof(header)) {
		say("swap: cannot write the swap header\n");
		return -1;
	}
	close(fd);
	if (my_syscall2(__NR_swapon, "/dev/zram0", 0)) {
		say("swap: swapon failed\n");
		return -1;
	}
	return 0;
}
