/* An S-mode payload: OpenSBI started every hart (HSM) and each says hello
 * through the SBI console. */
#include "runtime.h"

int main(unsigned long hartid)
{
	printf("S-mode hello from hart %lu of %u\n", hartid, num_harts());
	barrier();
	if (hartid == boot_hart())
		printf("all %u harts running in S-mode under SBI, boot hart %lu\n", num_harts(), hartid);
	return 0;
}
