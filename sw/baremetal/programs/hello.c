/* Every hart says hello; hart 0 reports once all have. */
#include "runtime.h"

int main(unsigned long hartid)
{
	printf("hello from hart %lu of %u on %s\n", hartid, num_harts(), PLATFORM_NAME);
	barrier();
	if (hartid == boot_hart())
		printf("all %u harts said hello in %lu cycles\n", num_harts(), (unsigned long)rdcycle());
	return 0;
}
