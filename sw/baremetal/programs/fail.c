/* Fails on purpose with status 3, so the tests can see failures reported. */
#include "runtime.h"

int main(unsigned long hartid)
{
	if (hartid != 0)
		return 0;
	printf("this program fails on purpose\n");
	return 3;
}
